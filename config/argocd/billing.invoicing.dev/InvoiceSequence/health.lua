-- Argo CD health of a billing.invoicing.dev/v1 InvoiceSequence.
--
-- An InvoiceSequence is the controller's numbering state of a workspace
-- (docs/numbering.md); it has no status and nothing to wait for: it is
-- Healthy from the moment it exists. Reserved sequences are numbers handed
-- out whose invoices are being written; a few are normal under load.
-- People do not keep these in Git.
--
-- Argo CD runs scripts from argocd-cm without Lua's standard libraries
-- (only base and table), so this one uses neither string nor os.
local hs = {}
hs.status = "Healthy"
local nextSequence = 1
local reserved = 0
if obj.spec ~= nil then
  if obj.spec.next ~= nil then
    nextSequence = obj.spec.next
  end
  if obj.spec.reserved ~= nil then
    reserved = #obj.spec.reserved
  end
end
hs.message = "Next sequence " .. tostring(nextSequence) .. "; " .. tostring(reserved) .. " reserved, not yet written"
return hs

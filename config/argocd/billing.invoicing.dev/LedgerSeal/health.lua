-- Argo CD health of a billing.invoicing.dev/v1 LedgerSeal.
--
-- A LedgerSeal is written only by the manager, whole, and is never changed
-- (docs/ledger.md): it has no conditions and nothing to wait for, so it is
-- Healthy from the moment it exists. Its ledger.sealed event in
-- status.events follows once the seal is verified; the chain is checked
-- with GET /v1/seals/verify, not by a health check. People do not keep
-- seals in Git.
--
-- Argo CD runs scripts from argocd-cm without Lua's standard libraries
-- (only base and table), so this one uses neither string nor os.
local hs = {}
hs.status = "Healthy"
local spec = obj.spec
if spec == nil then
  hs.message = "Sealed"
  return hs
end
local counts = spec.counts
if counts == nil then
  counts = {}
end
local function count(n)
  if n == nil then
    return "0"
  end
  return tostring(n)
end
hs.message = "Seal " .. count(spec.sequence) .. " of " .. count(counts.invoices) .. " invoices, " ..
  count(counts.creditNotes) .. " credit notes and " .. count(counts.payments) .. " payments; hash " ..
  tostring(spec.shortHash)
return hs

-- Argo CD health of a billing.invoicing.dev/v1 IdempotencyKey.
--
-- An IdempotencyKey is the HTTP adapter's record of one Idempotency-Key
-- header; it has no status and nothing to wait for: it is Healthy from the
-- moment it exists until the controller deletes it at spec.expiresAt.
-- People do not normally keep these in Git.
--
-- Argo CD runs scripts from argocd-cm without Lua's standard libraries
-- (only base and table), so this one uses neither string nor os.
local hs = {}
hs.status = "Healthy"
if obj.spec ~= nil and obj.spec.resource ~= nil and obj.spec.objectName ~= nil and obj.spec.expiresAt ~= nil then
  hs.message = "Records the creation of " .. tostring(obj.spec.resource) .. "/" ..
    tostring(obj.spec.objectName) .. "; forgotten at " .. tostring(obj.spec.expiresAt)
else
  hs.message = "Records one Idempotency-Key of the HTTP API"
end
return hs

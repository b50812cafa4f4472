-- Argo CD health of a billing.invoicing.dev/v1 Invoice.
--
-- The controller reports kstatus conditions (api/v1/conditions.go):
--   Ready=True (Issued)                                  -> Healthy
--   Ready=False, Reconciling=True (CustomerNotFound,     -> Progressing: it is
--     TaxIDRequired, InvalidTax by the profile's default)   issued by itself as
--     soon as its customer, the tax ids or a new default exist
--   Ready=False, Stalled=True (TotalTooLarge,            -> Degraded: it never
--     AllowanceExceedsBase, InvalidTax of its own          will be; create a
--     lines)                                                new invoice
--   Ready=False, Stalled=True (AlreadySealed: phase      -> Degraded, with the
--     Invalid, its name is in a LedgerSeal; a sealed        message naming the
--     manifest applied again, docs/gitops.md)               seal: a person
--                                                           removes the manifest
--   no verdict yet, or a verdict for an older generation -> Progressing
--
-- Argo CD runs scripts from argocd-cm without Lua's standard libraries
-- (only base and table), so this one uses neither string nor os.
local hs = {}

local function condition(conditionType)
  if obj.status == nil or obj.status.conditions == nil then
    return nil
  end
  for _, c in ipairs(obj.status.conditions) do
    if c.type == conditionType then
      return c
    end
  end
  return nil
end

local function describe(c)
  if c.message ~= nil and c.message ~= "" then
    return c.message
  end
  return tostring(c.reason)
end

local generation = 0
if obj.metadata ~= nil and obj.metadata.generation ~= nil then
  generation = obj.metadata.generation
end
local observed = 0
if obj.status ~= nil and obj.status.observedGeneration ~= nil then
  observed = obj.status.observedGeneration
end

if observed == 0 then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to issue the invoice"
  return hs
end
if observed < generation then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to observe generation " .. tostring(generation) ..
    " (the status is for generation " .. tostring(observed) .. ")"
  return hs
end

local stalled = condition("Stalled")
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = describe(stalled)
  return hs
end

local ready = condition("Ready")
if ready == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to issue the invoice"
  return hs
end
if ready.status == "True" then
  hs.status = "Healthy"
  hs.message = describe(ready)
  return hs
end

local reconciling = condition("Reconciling")
if reconciling ~= nil and reconciling.status == "True" then
  hs.status = "Progressing"
  hs.message = describe(reconciling)
  return hs
end
if ready.status == "False" then
  hs.status = "Degraded"
  hs.message = describe(ready)
  return hs
end
hs.status = "Progressing"
hs.message = describe(ready)
return hs

-- Argo CD health of a billing.invoicing.dev/v1 BillingProfile.
--
-- The controller reports a Ready condition (api/v1/conditions.go):
--   Ready=True (Default): the profile named "default" applies to the
--     workspace's invoices                                -> Healthy
--   Ready=False (NotDefault): a profile of any other name applies to no
--     invoice, which is a mistake in the manifest          -> Degraded
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
  hs.message = "Waiting for the controller to observe the billing profile"
  return hs
end
if observed < generation then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to observe generation " .. tostring(generation) ..
    " (the status is for generation " .. tostring(observed) .. ")"
  return hs
end

local ready = condition("Ready")
if ready == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to observe the billing profile"
  return hs
end
if ready.status == "True" then
  hs.status = "Healthy"
  hs.message = describe(ready)
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

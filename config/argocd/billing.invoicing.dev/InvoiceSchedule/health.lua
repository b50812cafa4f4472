-- Argo CD health of a billing.invoicing.dev/v1 InvoiceSchedule.
--
-- The controller reports kstatus conditions (api/v1/conditions.go):
--   Ready=False, phase Paused (Paused: spec.paused)         -> Suspended
--   Ready=True (Scheduled: it issues each period when it     -> Healthy
--     comes due; Completed: every period is issued;
--     Cancelled: ended by hand)
--   Ready=False, Stalled=True (CustomerNotFound,            -> Degraded: it
--     InvalidSchedule, InvalidTemplate, InvoiceNameTaken)       issues nothing
--                                                              until a person
--                                                              fixes the spec
--                                                              or creates the
--                                                              customer
--   no status yet, or one for an older generation            -> Progressing
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
  hs.message = "Waiting for the controller to plan the schedule"
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

if obj.status.phase == "Paused" then
  hs.status = "Suspended"
  hs.message = "Paused: no period is issued until it resumes"
  return hs
end

local ready = condition("Ready")
if ready == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to plan the schedule"
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

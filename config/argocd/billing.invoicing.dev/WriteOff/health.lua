-- Argo CD health of a billing.invoicing.dev/v1 WriteOff.
--
-- The controller reports kstatus conditions, as for a Payment:
--   Ready=True (phase Recorded: what remained of its       -> Healthy
--     invoice is written off, the invoice uncollectible)
--   Ready=False, Reconciling=True (it waits, for instance  -> Progressing: it is
--     for its invoice to be issued)                           recorded by itself
--                                                             once it can be
--   Ready=False, Stalled=True (phase Rejected:             -> Degraded: it is
--     NothingRemaining, nothing remained of the invoice;      never recorded;
--     AlreadySealed, its name is in a LedgerSeal, a sealed    a person acts on
--     manifest applied again)                                 the message
--   no verdict yet (phase Pending), or a verdict for an    -> Progressing
--     older generation
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
  hs.message = "Waiting for the controller to record the write-off"
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
  hs.message = "Waiting for the controller to record the write-off"
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

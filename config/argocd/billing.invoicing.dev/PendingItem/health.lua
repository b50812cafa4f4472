-- Argo CD health of a billing.invoicing.dev/v1 PendingItem.
--
-- A pending item waits, for up to a period, for its schedule's next
-- invoice: that is where it is meant to be, so it is Healthy, not
-- Progressing (an Application holding one would otherwise show
-- Progressing for a month). The controller writes a status only when an
-- invoice takes it or it cannot be invoiced (api/v1/conditions.go):
--   no status: waiting for the schedule's next invoice       -> Healthy
--   Ready=True (Taken: an invoice took it)                    -> Healthy
--   Ready=False, Stalled=True (InvalidPendingItem: it cannot  -> Degraded:
--     be invoiced with the schedule's template)                  no invoice
--                                                                takes it
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

local stalled = condition("Stalled")
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = describe(stalled)
  return hs
end

local ready = condition("Ready")
if ready ~= nil and ready.status == "True" then
  hs.status = "Healthy"
  hs.message = describe(ready)
  return hs
end

local schedule = "its schedule"
if obj.spec ~= nil and obj.spec.scheduleRef ~= nil and obj.spec.scheduleRef.name ~= nil then
  schedule = "schedule " .. obj.spec.scheduleRef.name
end
hs.status = "Healthy"
hs.message = "Waiting for the next invoice of " .. schedule
return hs

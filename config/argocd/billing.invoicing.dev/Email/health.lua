-- Argo CD health of a billing.invoicing.dev/v1 Email.
--
-- The controller reports kstatus conditions, and DeliveryFailing:
--   Ready=True (phase Sent: the SMTP server accepted    -> Healthy
--     the message; phase Skipped: Settled, a reminder
--     of an invoice settled before it went out)
--   Ready=False, Reconciling=True (phase Pending: it    -> Progressing: it is
--     waits for its next attempt, SMTPError, with           sent by itself once
--     DeliveryFailing=True; or for its invoice or credit    it can be
--     note to be issued, WaitingForIssue)
--   Ready=False, Stalled=True (phase Failed:            -> Degraded: it is
--     AttemptsExhausted, the attempts ran out;             never sent; a person
--     NotConfigured, NoRecipient, SubjectNotFound, it       acts on the message
--     can never be sent as asked)
--   no verdict yet (phase Pending), or a verdict for an -> Progressing
--     older generation
-- While it waits, the message is Ready's, which says what the last attempt
-- failed with (Reconciling's only says that it waits).
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
local phase = nil
if obj.status ~= nil then
  phase = obj.status.phase
end

if observed == 0 then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to send the e-mail"
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
if phase == "Failed" then
  hs.status = "Degraded"
  if ready ~= nil then
    hs.message = describe(ready)
  else
    hs.message = "The e-mail was not sent and will not be"
  end
  return hs
end
if ready == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to send the e-mail"
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
  hs.message = describe(ready)
  return hs
end
if ready.status == "False" and phase ~= "Pending" then
  hs.status = "Degraded"
  hs.message = describe(ready)
  return hs
end
hs.status = "Progressing"
hs.message = describe(ready)
return hs

-- Argo CD health of a billing.invoicing.dev/v1 WebhookEndpoint.
--
-- The controller reports kstatus conditions (api/v1/conditions.go):
--   Ready=True (Delivered)                               -> Healthy
--   spec.paused, once the controller has seen it
--     (Ready=False, Paused)                              -> Suspended: nothing
--     is sent until spec.paused is false, and nothing is lost
--   Stalled=True (SecretNotFound or URLNotAllowed at once, DeliveryFailing
--     after 5 failed attempts in a row)                  -> Degraded: the
--     receiver, the Secret or the URL needs a person
--   Ready=False, not Stalled (DeliveryFailing, fewer than 5 failures in a
--     row): retried with backoff                         -> Progressing
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
  hs.message = "Waiting for the controller to observe the webhook endpoint"
  return hs
end
if observed < generation then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to observe generation " .. tostring(generation) ..
    " (the status is for generation " .. tostring(observed) .. ")"
  return hs
end

local ready = condition("Ready")
if obj.spec ~= nil and obj.spec.paused == true then
  hs.status = "Suspended"
  if ready ~= nil and ready.reason == "Paused" then
    hs.message = describe(ready)
  else
    hs.message = "Delivery is paused (spec.paused)"
  end
  return hs
end

local stalled = condition("Stalled")
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = describe(stalled)
  return hs
end

if ready == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to observe the webhook endpoint"
  return hs
end
if ready.status == "True" then
  hs.status = "Healthy"
  hs.message = describe(ready)
  return hs
end
hs.status = "Progressing"
hs.message = describe(ready)
return hs

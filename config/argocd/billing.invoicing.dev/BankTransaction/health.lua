-- Argo CD health of a billing.invoicing.dev/v1 BankTransaction.
--
-- A bank transaction is a line of an imported statement; the controller
-- decides once what it is (api/v1/conditions.go):
--   no Ready condition: not looked at yet                      -> Progressing
--   Ready=True, reason Matched (a payment records it) or       -> Healthy
--     Ignored (a debit or reversal, which pays no invoice)
--   Ready=True, reason Unmatched (no rule matched the credit)  -> Healthy: it
--                                                                 waits for a
--                                                                 person, and
--                                                                 nothing is
--                                                                 broken
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

local ready = condition("Ready")
if ready == nil or ready.status ~= "True" then
  hs.status = "Progressing"
  hs.message = "Waiting for the controller to match it"
  return hs
end
hs.status = "Healthy"
hs.message = describe(ready)
if ready.reason == "Unmatched" then
  hs.message = "Unmatched, for a person to match: " .. hs.message
end
return hs

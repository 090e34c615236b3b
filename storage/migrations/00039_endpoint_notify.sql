-- +goose Up
-- Workers remember, per integrator, whether any of its postback endpoints
-- has a row (was ever paused or disabled): only such an endpoint's gate can
-- hold or order a delivery, so the others' deliveries skip the gate's
-- statement (storage.DB.MayHoldDeliveries). A pause, resume or disable
-- empties that memory as a key change does (migration 13), with its commit.
CREATE TRIGGER webhook_endpoints_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON webhook_endpoints
    FOR EACH STATEMENT EXECUTE FUNCTION notify_keys_changed();

-- +goose Down
DROP TRIGGER webhook_endpoints_changed ON webhook_endpoints;

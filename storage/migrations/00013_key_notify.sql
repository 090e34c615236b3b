-- +goose Up
-- API processes keep recently used keys in memory (storage.DB.CacheKeys).
-- Every change to a key or an integrator (a revocation above all, a scope,
-- allowlist or fee change) notifies pixgate_keys in the changing
-- transaction, so the notification leaves with its commit whoever made the
-- change (pixgate key revoke, another replica, SQL by hand), and every API
-- process empties its cache when it arrives. New rows need no notice:
-- nothing unknown is cached. Such changes are rare, so the commit-time lock
-- that NOTIFY takes costs nothing that matters.

-- +goose StatementBegin
CREATE FUNCTION notify_keys_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('pixgate_keys', '');
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE OR TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION notify_keys_changed();
CREATE TRIGGER integrators_changed AFTER UPDATE OR DELETE OR TRUNCATE ON integrators
    FOR EACH STATEMENT EXECUTE FUNCTION notify_keys_changed();

-- +goose Down
DROP TRIGGER integrators_changed ON integrators;
DROP TRIGGER api_keys_changed ON api_keys;
DROP FUNCTION notify_keys_changed();

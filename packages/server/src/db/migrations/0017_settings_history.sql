-- Issue 11, "Settings history" (docs/decisions/0021): each settings page lists the changes of its
-- fields, newest first, from the project's audit events. Those are a few among the console's
-- events (a bulk revocation writes one per device), so they get an index of their own: partial, on
-- exactly the settings actions (the list of SETTINGS_ACTIONS in the domain), in created-at order.
CREATE INDEX audit_events_settings_idx ON audit_events (project_id, created_at, id)
  WHERE scope = 'console'
    AND (details ->> 'action') IN ('project.create', 'project.update', 'project.close', 'project.reopen', 'project.meta', 'issuer.update');

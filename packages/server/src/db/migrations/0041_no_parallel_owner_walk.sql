-- The devices list sorted by owner walks project_users_identity_idx in order and stops after one
-- page (docs/decisions/0019, 0046). Its planned cost is the whole walk's, so the planner took a
-- parallel index scan for it: two workers started to read about a hundred index entries. At 1 M
-- devices the workers' start-up was most of the call (p50 26.8 ms with them, 3.2 ms without, the
-- same rows). No statement of the server reads project_users in bulk, so it gets no workers.
ALTER TABLE project_users SET (parallel_workers = 0);

-- Plans a team run submitted: the plan's id is the run's. A run's plan is imported once (a
-- redelivered submission finds it here), follows the run's progress, and is approved through the
-- run alone.
CREATE TABLE run_plan (
    plan_id    uuid        PRIMARY KEY REFERENCES plan (id),
    team_id    uuid        NOT NULL,
    planner    text        NOT NULL,
    created_at timestamptz NOT NULL
);

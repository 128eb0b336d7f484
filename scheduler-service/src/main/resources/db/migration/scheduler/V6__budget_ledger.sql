-- The budget ledger: what every job reserved and spent, summed per scope (owner, team, member,
-- run, chain), and the budgets set on those scopes.

-- Budgets an owner set. A missing row, or a null limit, means no budget of that measure.
CREATE TABLE budget (
    scope       text        NOT NULL CHECK (scope IN ('owner', 'team', 'run', 'chain')),
    scope_id    text        NOT NULL,
    owner_id    text        NOT NULL,
    max_tokens  bigint      CHECK (max_tokens >= 0),
    max_cost    bigint      CHECK (max_cost >= 0),
    max_wall_ms bigint      CHECK (max_wall_ms >= 0),
    max_hops    integer     CHECK (max_hops >= 0),
    -- The owner's currency, on the owner's row: every cost is in integer micro-units of it.
    currency    text,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (scope, scope_id)
);

-- One row per scope that has had work: spent is settled usage, reserved is what admitted jobs
-- hold until they settle. An admission locks the rows of its job's scopes, so two replicas never
-- reserve past a budget.
CREATE TABLE ledger (
    scope           text        NOT NULL CHECK (scope IN ('owner', 'team', 'member', 'run',
                                    'chain')),
    scope_id        text        NOT NULL,
    owner_id        text        NOT NULL,
    team_id         uuid,
    spent_tokens    bigint      NOT NULL DEFAULT 0,
    spent_cost      bigint      NOT NULL DEFAULT 0,
    reserved_tokens bigint      NOT NULL DEFAULT 0 CHECK (reserved_tokens >= 0),
    reserved_cost   bigint      NOT NULL DEFAULT 0 CHECK (reserved_cost >= 0),
    jobs            integer     NOT NULL DEFAULT 0,
    started_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (scope, scope_id)
);

CREATE INDEX ledger_team ON ledger (team_id, scope) WHERE team_id IS NOT NULL;

-- What a job holds while it runs (the estimate, grown to its reported usage), released when it
-- settles; why a budget stopped it.
ALTER TABLE job ADD COLUMN reserved_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE job ADD COLUMN reserved_cost   bigint NOT NULL DEFAULT 0;
-- The scopes the hold is on: those with a budget when the job was admitted.
ALTER TABLE job ADD COLUMN reserved_on     text[] NOT NULL DEFAULT '{}';
ALTER TABLE job ADD COLUMN settled         boolean NOT NULL DEFAULT false;
ALTER TABLE job ADD COLUMN budget_stop     text;

CREATE INDEX job_reserved ON job (id) WHERE reserved_tokens > 0 OR reserved_cost > 0;

-- Hand-offs in a chain, for its hop budget.
ALTER TABLE chain ADD COLUMN hops integer NOT NULL DEFAULT 0;

-- Usage kept with its split: what a job's agent reported of input and output tokens and the model
-- it named (the latest report's), summed per scope, and per scope and model.

ALTER TABLE job ADD COLUMN input_tokens  bigint NOT NULL DEFAULT 0;
ALTER TABLE job ADD COLUMN output_tokens bigint NOT NULL DEFAULT 0;
-- Untrusted text the report carried: at most 128 printable characters (checked on the way in).
ALTER TABLE job ADD COLUMN model         text;

ALTER TABLE ledger ADD COLUMN spent_input_tokens  bigint NOT NULL DEFAULT 0;
ALTER TABLE ledger ADD COLUMN spent_output_tokens bigint NOT NULL DEFAULT 0;

-- Each scope's settled spend per model, written in the transaction that settles the job (under
-- the scope's ledger row lock), so a scope's rows always add up to its ledger row. Jobs that named
-- no model count under 'unspecified'.
CREATE TABLE ledger_model (
    scope         text   NOT NULL CHECK (scope IN ('owner', 'team', 'member', 'run', 'chain')),
    scope_id      text   NOT NULL,
    model         text   NOT NULL,
    input_tokens  bigint NOT NULL DEFAULT 0,
    output_tokens bigint NOT NULL DEFAULT 0,
    tokens        bigint NOT NULL DEFAULT 0,
    cost          bigint NOT NULL DEFAULT 0,
    jobs          bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, scope_id, model)
);

-- Spend settled before the split was kept named no model: it counts under 'unspecified' (its jobs
-- were not counted per scope then), so every scope's rows add up to its total from the start.
INSERT INTO ledger_model (scope, scope_id, model, tokens, cost, jobs)
SELECT scope, scope_id, 'unspecified', spent_tokens, spent_cost, 0
FROM ledger WHERE spent_tokens > 0 OR spent_cost > 0;

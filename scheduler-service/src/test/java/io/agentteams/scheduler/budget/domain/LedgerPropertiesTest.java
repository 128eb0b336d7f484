package io.agentteams.scheduler.budget.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jspecify.annotations.Nullable;

/**
 * Any interleaving of admissions, usage reports and settlements of jobs that share an owner, two
 * teams, a run and their chains — each step atomic, as the ledger rows' locks make it — keeps the
 * books: a job is admitted only where every budget it counts against has room for its estimate, a
 * report is stopped exactly when its growth does not fit, what is reserved is always the holds of
 * unsettled jobs, what is spent and held passes a budget only by usage reported at a job's end
 * beyond its hold, and once every job has settled nothing stays reserved.
 */
class LedgerPropertiesTest {

  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  private static final Scope OWNER = Scope.owner("pia");
  private static final Scope TEAM_A = Scope.team("a");
  private static final Scope TEAM_B = Scope.team("b");
  private static final Scope RUN = Scope.run("r");

  /** One job: where it counts, what it reports as it runs (totals so far), what it ends with. */
  record JobPlan(boolean teamA, boolean inRun, List<Long> reports, long last) {}

  /** The budgets of the shared scopes; null is none. */
  record Limits(
      @Nullable Long owner, @Nullable Long teamA, @Nullable Long teamB, @Nullable Long run) {}

  @Property(tries = 500)
  void anyInterleavingKeepsTheBooks(
      @ForAll("limits") Limits limits,
      @ForAll("jobs") List<JobPlan> jobs,
      @ForAll("seeds") long seed,
      @ForAll("estimates") long estimate) {
    Map<Scope, Balance> db = new HashMap<>();
    put(db, OWNER, limits.owner());
    put(db, TEAM_A, limits.teamA());
    put(db, TEAM_B, limits.teamB());
    put(db, RUN, limits.run());
    List<List<Scope>> scopes = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      JobPlan job = jobs.get(i);
      List<Scope> of = new ArrayList<>(List.of(OWNER, job.teamA() ? TEAM_A : TEAM_B));
      if (job.teamA() && job.inRun()) {
        of.add(RUN);
      }
      // Each job's own chain, with no budget.
      Scope chain = Scope.chain("c" + i);
      of.add(chain);
      put(db, chain, null);
      scopes.add(of);
    }

    // The interleaving: each job's steps in its own order (admit, reports, end), jobs shuffled.
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      for (int step = 0; step < jobs.get(i).reports().size() + 2; step++) {
        order.add(i);
      }
    }
    java.util.Collections.shuffle(order, new java.util.Random(seed));

    int[] next = new int[jobs.size()];
    boolean[] admitted = new boolean[jobs.size()];
    boolean[] ended = new boolean[jobs.size()];
    Usage[] hold = new Usage[jobs.size()];
    Usage[] used = new Usage[jobs.size()];
    Map<Scope, Long> overshoot = new HashMap<>();
    Map<Scope, Long> spentShadow = new HashMap<>();
    Usage estimateUsage = new Usage(estimate, 0);

    for (int i : order) {
      JobPlan job = jobs.get(i);
      int step = next[i]++;
      if (ended[i]) {
        continue;
      }
      List<Scope> of = scopes.get(i);
      // As admission does: the hold is only on the scopes with a budget; all are charged.
      List<Scope> held = held(db, of);
      Ledger ledger = new Ledger(of.stream().map(db::get).toList());
      if (step == 0) {
        boolean fits = of.stream().allMatch(s -> roomFor(db.get(s), estimate));
        Optional<BudgetExceeded> refused = ledger.reserve(held, estimateUsage, NOW);
        assertThat(refused.isEmpty())
            .as("admitted exactly when every budget has room")
            .isEqualTo(fits);
        refused.ifPresent(
            r ->
                assertThat(
                        of.stream().anyMatch(s -> r.budget().equals(s.kind().wire() + ".tokens")))
                    .isTrue());
        admitted[i] = refused.isEmpty();
        ended[i] = refused.isPresent();
        hold[i] = refused.isEmpty() ? estimateUsage : Usage.NONE;
        used[i] = Usage.NONE;
      } else if (step <= job.reports().size()) {
        Usage report = new Usage(job.reports().get(step - 1), 0);
        used[i] = used[i].atLeast(report);
        long more = Math.max(0, used[i].tokens() - hold[i].tokens());
        boolean fits = of.stream().allMatch(s -> growthFits(db.get(s), more));
        Ledger.Growth growth = ledger.grow(held, hold[i], used[i], NOW);
        assertThat(growth.stopped().isEmpty())
            .as("stopped exactly when the growth does not fit")
            .isEqualTo(fits);
        if (fits) {
          hold[i] = growth.hold();
          assertThat(hold[i]).isEqualTo(hold[i].atLeast(used[i]));
        } else {
          settle(ledger, of, held, hold[i], used[i], overshoot, spentShadow);
          ended[i] = true;
        }
      } else {
        used[i] = used[i].atLeast(new Usage(job.last(), 0));
        settle(ledger, of, held, hold[i], used[i], overshoot, spentShadow);
        ended[i] = true;
      }
      ledger.touched().forEach(b -> db.put(b.scope(), b));

      // What is held is exactly the holds of the admitted jobs that have not settled.
      for (Scope s : db.keySet()) {
        long holds = 0;
        for (int j = 0; j < jobs.size(); j++) {
          if (admitted[j] && !ended[j] && held(db, scopes.get(j)).contains(s)) {
            holds += hold[j].tokens();
          }
        }
        Balance b = db.get(s);
        assertThat(b.reserved().tokens()).as("reserved on %s", s).isEqualTo(holds);
        assertThat(b.spent().tokens()).isEqualTo(spentShadow.getOrDefault(s, 0L));
        Long limit = b.budget().maxTokens();
        if (limit != null) {
          assertThat(b.spent().tokens() + b.reserved().tokens())
              .as("committed on %s", s)
              .isLessThanOrEqualTo(limit + overshoot.getOrDefault(s, 0L));
        }
      }
    }
    for (Balance b : db.values()) {
      assertThat(b.reserved()).as("nothing stays reserved").isEqualTo(Usage.NONE);
    }
  }

  /** One settled job: whether it counts on team A (else B) and the run, and what it used. */
  record Settled(
      boolean teamA,
      boolean inRun,
      long input,
      long output,
      long extra,
      long cost,
      @Nullable String model) {}

  /**
   * However jobs settle, one ledger transaction or many, each scope's spend per model adds up to
   * its spend: tokens, input and output tokens and cost; and its jobs are the jobs it counted.
   */
  @Property(tries = 300)
  void eachScopesSpendPerModelAddsUpToItsSpend(
      @ForAll("settlements") List<Settled> jobs, @ForAll("seeds") long seed) {
    Map<Scope, Balance> db = new HashMap<>();
    for (Scope scope : List.of(OWNER, TEAM_A, TEAM_B, RUN)) {
      put(db, scope, seed % 2 == 0 ? null : 1_000L);
    }
    Map<Scope, Map<String, ModelSpend>> byModel = new HashMap<>();
    Map<Scope, Long> counted = new HashMap<>();
    java.util.Random random = new java.util.Random(seed);
    int i = 0;
    while (i < jobs.size()) {
      // A transaction settles one job or several (as a pass could), under the same locks.
      int batch = 1 + random.nextInt(3);
      Ledger ledger = new Ledger(db.values());
      for (int end = Math.min(jobs.size(), i + batch); i < end; i++) {
        Settled job = jobs.get(i);
        List<Scope> of = new ArrayList<>(List.of(OWNER, job.teamA() ? TEAM_A : TEAM_B));
        if (job.inRun()) {
          of.add(RUN);
        }
        Usage used =
            new Usage(
                job.input() + job.output() + job.extra(),
                job.cost(),
                job.input(),
                job.output(),
                job.model());
        ledger.settle(of, List.of(), Usage.NONE, used);
        of.forEach(s -> counted.merge(s, 1L, Long::sum));
      }
      ledger.touched().forEach(b -> db.put(b.scope(), b));
      for (Ledger.ModelDelta delta : ledger.settledByModel()) {
        byModel
            .computeIfAbsent(delta.scope(), s -> new HashMap<>())
            .merge(delta.spend().model(), delta.spend(), ModelSpend::plus);
      }
    }
    for (Scope scope : db.keySet()) {
      Balance b = db.get(scope);
      ModelSpend sum = new ModelSpend("all", 0, 0, 0, 0, 0);
      for (ModelSpend m : byModel.getOrDefault(scope, Map.of()).values()) {
        sum = sum.plus(m);
      }
      assertThat(sum.tokens()).as("tokens of %s", scope).isEqualTo(b.spent().tokens());
      assertThat(sum.inputTokens()).isEqualTo(b.spent().inputTokens());
      assertThat(sum.outputTokens()).isEqualTo(b.spent().outputTokens());
      assertThat(sum.cost()).isEqualTo(b.spent().costUnits());
      assertThat(sum.jobs()).isEqualTo(counted.getOrDefault(scope, 0L));
      assertThat(b.spent().model()).as("spend is amounts only").isNull();
    }
  }

  @Provide
  Arbitrary<List<Settled>> settlements() {
    Arbitrary<Long> amount = Arbitraries.longs().between(0, 50);
    Arbitrary<String> model = Arbitraries.of("large", "small", "tiny").injectNull(0.3);
    return Combinators.combine(
            Arbitraries.of(true, false),
            Arbitraries.of(true, false),
            amount,
            amount,
            amount,
            amount,
            model)
        .as(Settled::new)
        .list()
        .ofMaxSize(15);
  }

  private static void settle(
      Ledger ledger,
      List<Scope> of,
      List<Scope> held,
      Usage hold,
      Usage used,
      Map<Scope, Long> overshoot,
      Map<Scope, Long> spentShadow) {
    ledger.settle(of, held, hold, used);
    long beyond = Math.max(0, used.tokens() - hold.tokens());
    for (Scope s : of) {
      overshoot.merge(s, beyond, Long::sum);
      spentShadow.merge(s, used.tokens(), Long::sum);
    }
  }

  /** The scopes with a budget, which a job's hold is on. */
  private static List<Scope> held(Map<Scope, Balance> db, List<Scope> of) {
    return of.stream().filter(s -> db.get(s).budget().maxTokens() != null).toList();
  }

  private static boolean roomFor(Balance b, long estimate) {
    Long limit = b.budget().maxTokens();
    if (limit == null) {
      return true;
    }
    long remaining = limit - b.spent().tokens() - b.reserved().tokens();
    return remaining > 0 && estimate <= remaining;
  }

  private static boolean growthFits(Balance b, long more) {
    Long limit = b.budget().maxTokens();
    return limit == null || more <= limit - b.spent().tokens() - b.reserved().tokens();
  }

  private static void put(Map<Scope, Balance> db, Scope scope, @Nullable Long limit) {
    db.put(scope, Balance.empty(scope, new Budget(limit, null, null, null), NOW));
  }

  @Provide
  Arbitrary<Limits> limits() {
    Arbitrary<Long> limit = Arbitraries.longs().between(0, 120).injectNull(0.25);
    return Combinators.combine(limit, limit, limit, limit).as(Limits::new);
  }

  @Provide
  Arbitrary<List<JobPlan>> jobs() {
    Arbitrary<List<Long>> reports =
        Arbitraries.longs()
            .between(0, 15)
            .list()
            .ofMaxSize(3)
            .map(
                steps -> {
                  List<Long> totals = new ArrayList<>();
                  long total = 0;
                  for (long s : steps) {
                    total += s;
                    totals.add(total);
                  }
                  return totals;
                });
    Arbitrary<JobPlan> job =
        Combinators.combine(
                Arbitraries.of(true, false),
                Arbitraries.of(true, false),
                reports,
                Arbitraries.longs().between(0, 40))
            .as(JobPlan::new);
    return job.list().ofMinSize(1).ofMaxSize(12);
  }

  @Provide
  Arbitrary<Long> seeds() {
    return Arbitraries.longs();
  }

  @Provide
  Arbitrary<Long> estimates() {
    return Arbitraries.longs().between(0, 20);
  }
}

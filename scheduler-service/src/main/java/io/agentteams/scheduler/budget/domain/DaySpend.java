package io.agentteams.scheduler.budget.domain;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a scope's jobs spent on one day (UTC), counted on the day each job finished.
 *
 * @param day the day
 * @param tokens all tokens of the jobs that finished that day
 * @param cost their cost, in micro-units of the owner's currency
 * @param jobs how many of them spent anything
 */
public record DaySpend(LocalDate day, long tokens, long cost, long jobs) {

  public DaySpend {
    Objects.requireNonNull(day, "day");
  }

  /**
   * The last {@code days} days up to and including {@code today}, oldest first: one entry per day,
   * a day on which nothing was spent as zero, days outside the window left out.
   */
  public static List<DaySpend> lastDays(Collection<DaySpend> found, LocalDate today, int days) {
    if (days < 1) {
      throw new IllegalArgumentException("a trend covers at least one day");
    }
    Map<LocalDate, DaySpend> byDay = new HashMap<>();
    found.forEach(d -> byDay.merge(d.day(), d, DaySpend::plus));
    List<DaySpend> trend = new ArrayList<>(days);
    for (LocalDate day = today.minusDays(days - 1L); !day.isAfter(today); day = day.plusDays(1)) {
      trend.add(byDay.getOrDefault(day, new DaySpend(day, 0, 0, 0)));
    }
    return trend;
  }

  /** Both together, on this one's day. */
  public DaySpend plus(DaySpend other) {
    return new DaySpend(
        day,
        Math.addExact(tokens, other.tokens),
        Math.addExact(cost, other.cost),
        Math.addExact(jobs, other.jobs));
  }
}

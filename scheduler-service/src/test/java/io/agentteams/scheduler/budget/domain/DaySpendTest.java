package io.agentteams.scheduler.budget.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A spend trend has one entry per day of its window, oldest first, and nothing outside it. */
class DaySpendTest {

  private static final LocalDate TODAY = LocalDate.parse("2026-12-07");

  @Test
  void fillsDaysWithoutSpendWithZeroAndLeavesOutDaysOutsideTheWindow() {
    List<DaySpend> trend =
        DaySpend.lastDays(
            List.of(
                new DaySpend(TODAY, 1_200, 30_000, 2),
                new DaySpend(TODAY.minusDays(2), 500, 10_000, 1),
                new DaySpend(TODAY.minusDays(14), 9_999, 1, 1)),
            TODAY,
            14);

    assertThat(trend).hasSize(14);
    assertThat(trend.get(0).day()).isEqualTo(LocalDate.parse("2026-11-24"));
    assertThat(trend.get(13)).isEqualTo(new DaySpend(TODAY, 1_200, 30_000, 2));
    assertThat(trend.get(11)).isEqualTo(new DaySpend(TODAY.minusDays(2), 500, 10_000, 1));
    assertThat(trend.get(12)).isEqualTo(new DaySpend(TODAY.minusDays(1), 0, 0, 0));
    assertThat(trend.stream().mapToLong(DaySpend::tokens).sum()).isEqualTo(1_700);
  }

  @Test
  void addsUpEntriesOfTheSameDay() {
    List<DaySpend> trend =
        DaySpend.lastDays(
            List.of(new DaySpend(TODAY, 100, 1, 1), new DaySpend(TODAY, 50, 2, 1)), TODAY, 1);

    assertThat(trend).containsExactly(new DaySpend(TODAY, 150, 3, 2));
  }

  @Test
  void refusesAWindowOfNoDays() {
    assertThatThrownBy(() -> DaySpend.lastDays(List.of(), TODAY, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

package io.agentteams.gateway.console.view;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A team's spend as the API shows it: the owner's and the team's accounts, one per member, run and
 * chain, and the team's spend per day of the last days. Costs are integer micro-units of the
 * owner's currency.
 */
public record Spend(
    UUID teamId,
    String currency,
    Line owner,
    Line team,
    List<Line> members,
    List<Line> runs,
    List<Line> chains,
    List<Day> daily) {

  public Spend {
    members = members == null ? List.of() : List.copyOf(members);
    runs = runs == null ? List.of() : List.copyOf(runs);
    chains = chains == null ? List.of() : List.copyOf(chains);
    daily = daily == null ? List.of() : List.copyOf(daily);
  }

  /**
   * What was spent on one day (UTC), counted on the day each job finished.
   *
   * @param day the day, {@code 2026-12-07}
   */
  public record Day(String day, long tokens, long cost, long jobs) {

    /** Its cost, as money to the cent. */
    public String cost(String currency) {
      return money(cost, currency);
    }

    /** The day as people read it, e.g. {@code Mon 7 Dec}. */
    public String label() {
      try {
        return LABEL.format(LocalDate.parse(day));
      } catch (DateTimeParseException e) {
        return day;
      }
    }
  }

  /**
   * Spend per day, oldest first, in a currency: what the console's trend table shows.
   *
   * @param days one per day of the trend, days without spend as zero
   */
  public record Trend(List<Day> days, String currency) {

    public Trend {
      days = List.copyOf(days);
    }

    /** The tokens of all its days. */
    public long tokens() {
      return days.stream().mapToLong(Day::tokens).sum();
    }

    /** A day's share of the busiest day's tokens, in percent (the bar drawn beside it). */
    public long percent(Day day) {
      long most = days.stream().mapToLong(Day::tokens).max().orElse(0);
      return most == 0 ? 0 : Math.round(day.tokens() * 100.0 / most);
    }
  }

  /** The team's spend per day. */
  public Trend trend() {
    return new Trend(daily, currency);
  }

  private static final DateTimeFormatter LABEL =
      DateTimeFormatter.ofPattern("EEE d MMM", Locale.ENGLISH);

  /** Tokens and cost. */
  public record Amount(long tokens, long cost) {}

  /** The limits that apply; null ones are none. */
  public record Limits(
      @Nullable Long maxTokens,
      @Nullable Long maxCost,
      @Nullable Long maxWallSeconds,
      @Nullable Integer maxHops) {}

  /**
   * What one model spent: a job counts under the model its latest report named ({@code unspecified}
   * when none). The name is the agents' untrusted text, shown as text only.
   */
  public record ModelLine(
      String model, long inputTokens, long outputTokens, long tokens, long cost, long jobs) {

    /** Its cost, as money to the cent. */
    public String cost(String currency) {
      return money(cost, currency);
    }
  }

  /** One scope's account, with its spend per model (most tokens first). */
  public record Line(
      String scope,
      String id,
      @Nullable String member,
      Amount spent,
      Amount reserved,
      @Nullable Limits budget,
      @Nullable Long remainingTokens,
      @Nullable Long remainingCost,
      List<ModelLine> byModel) {

    public Line {
      byModel = byModel == null ? List.of() : List.copyOf(byModel);
    }

    /** The tokens budget as people read it, or "none". */
    public String tokensBudget() {
      return budget == null || budget.maxTokens() == null
          ? "none"
          : Format.INSTANCE.number(budget.maxTokens());
    }

    /** What is left of the tokens budget, or an em dash with none. */
    public String tokensLeft() {
      return remainingTokens == null ? "—" : Format.INSTANCE.number(remainingTokens);
    }

    /** Its cost, as money to the cent. */
    public String cost(String currency) {
      return money(spent.cost(), currency);
    }
  }

  /**
   * An amount in micro-units as money to the cent with thousands separators ({@code 1,234.50 USD});
   * a spend below one cent reads {@code < 0.01 USD} rather than nothing.
   */
  public static String money(long microUnits, String currency) {
    if (microUnits > 0 && microUnits < 10_000) {
      return "< 0.01 " + currency;
    }
    return String.format(Locale.ENGLISH, "%,.2f %s", microUnits / 1_000_000.0, currency);
  }
}

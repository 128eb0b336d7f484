package io.agentteams.agents.scripted;

import static io.agentteams.agents.scripted.Steps.answer;
import static io.agentteams.agents.scripted.Steps.askOwner;
import static io.agentteams.agents.scripted.Steps.broadcast;
import static io.agentteams.agents.scripted.Steps.claim;
import static io.agentteams.agents.scripted.Steps.complete;
import static io.agentteams.agents.scripted.Steps.handOff;
import static io.agentteams.agents.scripted.Steps.heartbeat;
import static io.agentteams.agents.scripted.Steps.importPlan;
import static io.agentteams.agents.scripted.Steps.message;
import static io.agentteams.agents.scripted.Steps.pause;
import static io.agentteams.agents.scripted.Steps.publish;
import static io.agentteams.agents.scripted.Steps.readContext;
import static io.agentteams.agents.scripted.Steps.readReceipt;
import static io.agentteams.agents.scripted.Steps.updateEntry;

import io.agentteams.sdk.tasks.PlannedTask;
import io.agentteams.sdk.teams.NewTeam;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * A team of four scripted members that writes a launch brief: the lead plans (a plan of three tasks
 * with dependencies), the researcher, the reviewer and the writer each claim, heartbeat and
 * complete their task in dependency order, publish to the public state, message and broadcast, and
 * hand the work on with {@code send_member} (each getting the next member's answer back as a
 * receipt in a later turn); the writer asks the owner which tone to take before it writes.
 *
 * <p>The seed picks the product, the audience and what they need, so one seed always gives the same
 * texts. A test replaces a member's script with {@link #with} to change what it does.
 *
 * @param seed what the texts were picked with
 * @param values the picked texts ({@code product}, {@code audience}, {@code need})
 * @param scripts each member's script
 */
public record ScriptedTeam(long seed, Map<String, String> values, Map<String, Script> scripts) {

  /** The members, the lead first. */
  public static final List<String> MEMBERS = List.of("lead", "researcher", "reviewer", "writer");

  /** The question the writer asks the owner. */
  public static final String QUESTION = "Which tone should the brief take: formal or casual?";

  private static final List<String> PRODUCTS =
      List.of("Tidewater Sync", "Lumen Notes", "Harbor CLI", "Quillstack", "Beacon Boards");
  private static final List<String> AUDIENCES =
      List.of("platform engineers", "support leads", "data analysts", "indie developers");
  private static final List<String> NEEDS =
      List.of(
          "a setup that takes minutes, not days",
          "one place to see what changed",
          "answers they can trust without re-checking",
          "fewer steps between an idea and a release");

  public ScriptedTeam {
    values = Map.copyOf(values);
    scripts = Map.copyOf(scripts);
  }

  /**
   * The launch-brief team.
   *
   * @param seed picks the texts
   * @param pace a pause between visible steps (zero in tests; a second or two in the demo)
   */
  public static ScriptedTeam launchBrief(long seed, Duration pace) {
    Random random = new Random(seed);
    Map<String, String> values = new LinkedHashMap<>();
    values.put("product", PRODUCTS.get(random.nextInt(PRODUCTS.size())));
    values.put("audience", AUDIENCES.get(random.nextInt(AUDIENCES.size())));
    values.put("need", NEEDS.get(random.nextInt(NEEDS.size())));
    Map<String, Script> scripts = new LinkedHashMap<>();
    scripts.put("lead", lead(pace));
    scripts.put("researcher", researcher(pace));
    scripts.put("reviewer", reviewer(pace));
    scripts.put("writer", writer(pace));
    return new ScriptedTeam(seed, values, scripts);
  }

  /** The team's name. */
  public String name() {
    return "Launch brief (demo)";
  }

  /** The team's goal. */
  public String goal() {
    return fill("Write a one-page launch brief for {product} that {audience} can act on.");
  }

  /** The owner's request to the lead that starts the work. */
  public String kickoff() {
    return fill("Plan the launch brief for {product} and get the team to write it.");
  }

  /** The team to form, each member bound to the agent {@code agentOf} names. */
  public NewTeam newTeam(String name, Function<String, String> agentOf) {
    return new NewTeam(
        name,
        goal(),
        MEMBERS.stream()
            .map(
                member ->
                    member.equals("lead")
                        ? NewTeam.NewMember.lead(member, agentOf.apply(member))
                        : NewTeam.NewMember.of(member, agentOf.apply(member)))
            .toList());
  }

  /** The agent that plays a member. */
  public ScriptedAgent agent(String member) {
    Script script = scripts.get(member);
    if (script == null) {
      throw new IllegalArgumentException("no member " + member);
    }
    return new ScriptedAgent(script, values);
  }

  /** The same team with one member's script replaced. */
  public ScriptedTeam with(String member, Script script) {
    Map<String, Script> changed = new LinkedHashMap<>(scripts);
    changed.put(member, script);
    return new ScriptedTeam(seed, values, changed);
  }

  /** A text with this team's values filled in. */
  public String fill(String template) {
    String filled = template;
    for (Map.Entry<String, String> value : values.entrySet()) {
      filled = filled.replace("{" + value.getKey() + "}", value.getValue());
    }
    return filled;
  }

  /** The plan the lead imports: research, then review, then write. */
  public static List<PlannedTask> plan() {
    return List.of(
        PlannedTask.of(
            "research", "Research the audience", "Who {audience} are and what they need"),
        PlannedTask.of(
            "review", "Review the findings", "Check the research before anyone writes", "research"),
        PlannedTask.of(
            "write", "Write the brief", "One page, in the tone the owner asks for", "review"));
  }

  private static Script lead(Duration pace) {
    return new Script(
        List.of(
            readContext(),
            publish(
                "objective",
                "Objective",
                "Ship a one-page launch brief for {product} that {audience} can act on."),
            importPlan(plan()),
            publish("plan", "Plan", "research -> review -> write; each member claims its task."),
            pause(pace),
            broadcast(
                "The plan is on the board: research, then review, then the brief. Each of you"
                    + " hands the work on when your task is done."),
            message("researcher", "You start: the research task is ready for you."),
            handOff("researcher", "Research what {audience} need from {product}; publish it."),
            answer(
                "Plan imported (research -> review -> write); research handed to the researcher.")),
        List.of(
            readReceipt(),
            updateEntry("Plan", "research done -> review -> write; the researcher reported back."),
            answer("Noted the research: {receipt}")));
  }

  private static Script researcher(Duration pace) {
    return new Script(
        List.of(
            readContext(),
            claim("research"),
            heartbeat("reading sources", 30),
            pause(pace),
            publish("finding", "Audience", "{audience} want {need}."),
            heartbeat("summarising", 80),
            pause(pace),
            complete("{audience} want {need}"),
            message("reviewer", "The findings are in the public state under 'Audience'."),
            handOff("reviewer", "Review the research on {product} and tell me what to tighten."),
            answer("Research done: {audience} want {need}.")),
        List.of(readReceipt(), answer("Review noted: {receipt}")));
  }

  private static Script reviewer(Duration pace) {
    return new Script(
        List.of(
            readContext(),
            claim("review"),
            heartbeat("checking the findings", 50),
            pause(pace),
            publish("requirement", "Review notes", "Lead with {need}; keep the brief to one page."),
            complete("approved with notes"),
            handOff(
                "writer", "Write the one-page brief for {product} from the findings and notes."),
            answer("Review done: approved, with notes in the public state.")),
        List.of(readReceipt(), answer("Brief received: {receipt}")));
  }

  private static Script writer(Duration pace) {
    return new Script(
        List.of(
            readContext(),
            askOwner(QUESTION),
            claim("write"),
            heartbeat("drafting", 60),
            pause(pace),
            publish("finding", "Brief", "{product} for {audience}: {need}. Tone: {answer}."),
            complete("brief written in a {answer} tone"),
            broadcast("The brief is in the public state (tone: {answer})."),
            answer("Brief: {product} for {audience} - {need}. Tone: {answer}.")),
        List.of(readReceipt(), answer("Noted: {receipt}")));
  }
}

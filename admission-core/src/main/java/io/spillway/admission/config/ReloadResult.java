package io.spillway.admission.config;

import io.spillway.admission.event.ReloadEvent;
import java.util.List;
import java.util.stream.Collectors;
import java.util.Objects;

/**
 * The outcome of one reload attempt.
 *
 * @param status what happened
 * @param source the file that was read
 * @param diff what changed (empty unless {@link Status#APPLIED})
 * @param problems why the file was refused (empty unless {@link Status#REJECTED})
 */
public record ReloadResult(Status status, String source, ConfigDiff diff, List<ConfigProblem> problems) {

  /** What a reload attempt did. */
  public enum Status {
    /** The file was valid and differed from the running config: the new config is running. */
    APPLIED,
    /** The file's content, or the config it describes, is the same as the running one: nothing was done. */
    UNCHANGED,
    /** The file could not be read or was invalid, or the engine refused it: the running config stays. */
    REJECTED
  }

  /** Validates and copies the parts. */
  public ReloadResult {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(diff, "diff");
    problems = List.copyOf(problems);
  }

  /** This result as a listener event (an unchanged file is not an event: do not call it for one). */
  public ReloadEvent toEvent() {
    if (status == Status.UNCHANGED) {
      throw new IllegalStateException("an unchanged file is not a reload event");
    }
    return new ReloadEvent(status == Status.APPLIED, source,
        diff.changes().stream().map(ConfigDiff.Change::toString).collect(Collectors.toList()),
        problems.stream().map(ConfigProblem::toString).collect(Collectors.toList()));
  }

  @Override
  public String toString() {
    switch (status) {
      case APPLIED: return "reloaded " + source + ": " + diff;
      case UNCHANGED: return source + " unchanged";
      default: return "refused " + source + ", keeping the running config: " + problems;
    }
  }
}

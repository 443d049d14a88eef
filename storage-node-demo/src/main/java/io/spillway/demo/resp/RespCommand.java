package io.spillway.demo.resp;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * One decoded client command: its arguments as raw bytes, the command name first.
 *
 * @param args the arguments; never empty
 */
public record RespCommand(List<byte[]> args) {

  /** Creates a command; the list is used as is and must not be modified afterwards. */
  public RespCommand {
    if (args.isEmpty()) {
      throw new IllegalArgumentException("a command has at least one argument, was 0");
    }
  }

  /** Convenience factory for tests and the load generator. */
  public static RespCommand of(String... args) {
    return new RespCommand(java.util.Arrays.stream(args).map(a -> a.getBytes(StandardCharsets.UTF_8)).toList());
  }

  /** The command name, upper-cased (ASCII). */
  public String name() {
    return new String(args.get(0), StandardCharsets.US_ASCII).toUpperCase(Locale.ROOT);
  }

  /** Number of arguments including the command name. */
  public int size() {
    return args.size();
  }

  /** Argument {@code i} (0 is the name). */
  public byte[] arg(int i) {
    return args.get(i);
  }

  /** Argument {@code i} as a UTF-8 string. */
  public String argString(int i) {
    return new String(args.get(i), StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "RespCommand" + args.stream().map(a -> new String(a, StandardCharsets.UTF_8)).toList();
  }
}

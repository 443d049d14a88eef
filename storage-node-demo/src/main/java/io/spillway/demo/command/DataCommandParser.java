package io.spillway.demo.command;

import io.spillway.demo.resp.RespCommand;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses the data commands (GET, MGET, SET, DEL, RANGE) and checks their arity and arguments.
 * Error texts follow Redis, so that clients and people recognise them.
 */
public final class DataCommandParser {
  /** Names of the commands this parser accepts, upper case. */
  public static final Set<String> NAMES = Set.of("GET", "MGET", "SET", "DEL", "RANGE");

  private final int defaultRangeLimit;
  private final int maxRangeLimit;

  /**
   * @param defaultRangeLimit pairs returned by RANGE without LIMIT
   * @param maxRangeLimit largest LIMIT accepted
   */
  public DataCommandParser(int defaultRangeLimit, int maxRangeLimit) {
    if (maxRangeLimit < 1) {
      throw new IllegalArgumentException("maxRangeLimit must be >= 1, was " + maxRangeLimit);
    }
    if (defaultRangeLimit < 1 || defaultRangeLimit > maxRangeLimit) {
      throw new IllegalArgumentException(
          "defaultRangeLimit must be in [1, maxRangeLimit (" + maxRangeLimit + ")], was " + defaultRangeLimit);
    }
    this.defaultRangeLimit = defaultRangeLimit;
    this.maxRangeLimit = maxRangeLimit;
  }

  /** True if {@code name} (upper case) is a data command. */
  public static boolean isDataCommand(String name) {
    return NAMES.contains(name);
  }

  /**
   * Parses a data command.
   *
   * @throws CommandException for a wrong number of arguments or a bad argument
   */
  public DataCommand parse(RespCommand command) throws CommandException {
    final String name = command.name();
    final int n = command.size();
    switch (name) {
      case "GET":
        arity(name, n == 2);
        return new DataCommand.Get(command.arg(1));
      case "MGET":
        arity(name, n >= 2);
        return new DataCommand.MGet(List.copyOf(command.args().subList(1, n)));
      case "SET":
        if (n > 3) {
          throw new CommandException("syntax error (SET options such as EX/NX are not supported)");
        }
        arity(name, n == 3);
        return new DataCommand.Set(command.arg(1), command.arg(2));
      case "DEL":
        arity(name, n >= 2);
        return new DataCommand.Del(List.copyOf(command.args().subList(1, n)));
      case "RANGE":
        return parseRange(command);
      default:
        throw new CommandException("unknown command '" + name.toLowerCase(Locale.ROOT) + "'");
    }
  }

  private DataCommand parseRange(RespCommand command) throws CommandException {
    final int n = command.size();
    arity("RANGE", n == 3 || n == 5);
    int limit = defaultRangeLimit;
    if (n == 5) {
      if (!"LIMIT".equalsIgnoreCase(command.argString(3))) {
        throw new CommandException("syntax error, expected RANGE start end [LIMIT n]");
      }
      try {
        limit = Integer.parseInt(command.argString(4));
      } catch (NumberFormatException e) {
        throw new CommandException("value is not an integer or out of range");
      }
      if (limit < 1 || limit > maxRangeLimit) {
        throw new CommandException("LIMIT must be in [1, " + maxRangeLimit + "], was " + limit);
      }
    }
    final byte[] start = isSingle(command.arg(1), '-') ? null : command.arg(1);
    final byte[] end = isSingle(command.arg(2), '+') ? null : command.arg(2);
    return new DataCommand.Range(start, end, limit);
  }

  private static boolean isSingle(byte[] arg, char c) {
    return arg.length == 1 && arg[0] == c;
  }

  private static void arity(String name, boolean ok) throws CommandException {
    if (!ok) {
      throw new CommandException("wrong number of arguments for '" + name.toLowerCase(Locale.ROOT) + "' command");
    }
  }
}

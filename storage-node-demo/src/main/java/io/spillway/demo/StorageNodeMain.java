package io.spillway.demo;

import io.spillway.demo.admission.EngineConfigSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Command line of the storage node demo, parsed by picocli: one subcommand per mode ({@link DemoMode demo}, the
 * default when no subcommand is given; {@link ClusterCommand cluster}; {@link NodeCommand node}; {@link LoadCommand
 * load}; {@link VerifyCommand verify}; {@link ShootoutMode shootout}), each with generated {@code --help} that shows
 * the defaults. A bad option or value exits with status 2 and a message naming the option and the value on stderr.
 */
@Command(name = "java -jar storage-node-demo.jar", sortOptions = false,
    description = "Spillway storage node demo: a replicated RESP key-value store (Netty, Ratis, RocksDB). Without a "
        + "subcommand, runs the demo.",
    subcommands = {DemoMode.class, ClusterCommand.class, NodeCommand.class, LoadCommand.class, VerifyCommand.class,
        ShootoutMode.class},
    footer = {"", "Example: a 3-node cluster, then load against it, then redis-cli:",
        "  java -jar storage-node-demo.jar cluster --chaos",
        "  java -jar storage-node-demo.jar load --rate 3000 --duration 20",
        "  redis-cli -p 6379 SET hello world; redis-cli -p 6380 GET hello; curl localhost:9090/status"})
public final class StorageNodeMain implements Runnable {
  /** Columns of the generated usage. */
  static final int USAGE_WIDTH = 110;
  private static final String RATIS_LOG_LEVEL = "org.slf4j.simpleLogger.log.org.apache.ratis";

  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT,
      description = "Show this help and exit.")
  boolean help;

  /** Entry point; exits with the subcommand's status (2 for a usage error). */
  public static void main(String[] args) {
    System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Parses {@code args}, runs the subcommand (the demo if none is named) and returns the exit status. */
  static int execute(String[] args, PrintWriter out, PrintWriter err) {
    return commandLine(out, err).execute(withDefaultMode(args));
  }

  /** The command line with its subcommands, usage width and error handlers. */
  static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    final CommandLine cl = new CommandLine(new StorageNodeMain());
    cl.setUsageHelpWidth(USAGE_WIDTH);
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(StorageNodeMain::usageError);
    cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
      if (ex instanceof IllegalArgumentException) { // a config the options built was refused: a usage error too
        cmd.getErr().println("Invalid options: " + ex.getMessage());
        cmd.getErr().println(tryHelp(cmd));
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
      }
      if (ex instanceof IOException || ex instanceof UncheckedIOException) {
        // the machine refused what the options asked (a port, a folder, a node to connect to): one line, no trace
        cmd.getErr().println("Error: " + describe(ex instanceof UncheckedIOException u ? u.getCause() : ex, ex));
        return 1;
      }
      throw ex;
    });
    return cl;
  }

  /**
   * An I/O failure in one line: a file system's refusal names its path and what went wrong ({@code /x/a.ledger: no
   * such file or directory}; the JDK's message for some is the bare path), anything else its own message.
   */
  static String describe(Throwable io, Throwable thrown) {
    if (io instanceof FileSystemException f) {
      return (thrown == io ? "" : thrown.getMessage() + ": ") + f.getFile() + ": " + reason(f);
    }
    return thrown.getMessage() != null ? thrown.getMessage() : thrown.getClass().getSimpleName();
  }

  /** What a file system refused, in lower case: the JDK's reason, or the one its exception's type stands for. */
  private static String reason(FileSystemException f) {
    final String reason = f.getReason() != null ? f.getReason()
        : f instanceof NoSuchFileException ? "no such file or directory"
        : f instanceof AccessDeniedException ? "permission denied"
        : f instanceof FileAlreadyExistsException ? "already exists"
        : f instanceof NotDirectoryException ? "not a directory"
        : f.getClass().getSimpleName();
    return reason.isEmpty() ? reason : Character.toLowerCase(reason.charAt(0)) + reason.substring(1);
  }

  /**
   * Creates the folder an option names (or its default) before anything starts, and refuses it if that fails or the
   * folder cannot be written: a run of minutes must not end on a report it cannot write.
   */
  static void writableDirectory(CommandSpec spec, String option, Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (FileSystemException e) { // already exists: a file where a folder of the path should be
      final String why = e instanceof FileAlreadyExistsException ? "not a directory" : reason(e);
      check(spec, false, option, dir + ": " + why);
    } catch (IOException e) {
      check(spec, false, option, dir + ": " + e.getMessage());
    }
    check(spec, Files.isWritable(dir), option, dir + ": not writable");
  }

  /** {@code demo} in front of {@code args} if they name no subcommand (none, or options first), as always. */
  static String[] withDefaultMode(String[] args) {
    final boolean topLevelHelp = args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"));
    if (topLevelHelp || (args.length > 0 && !args[0].startsWith("-"))) {
      return args;
    }
    final String[] withDemo = new String[args.length + 1];
    withDemo[0] = "demo";
    System.arraycopy(args, 0, withDemo, 1, args.length);
    return withDemo;
  }

  private static int usageError(ParameterException ex, String[] args) {
    final CommandLine cmd = ex.getCommandLine();
    final PrintWriter err = cmd.getErr();
    err.println(ex.getMessage());
    UnmatchedArgumentException.printSuggestions(ex, err);
    err.println(tryHelp(cmd));
    return cmd.getCommandSpec().exitCodeOnInvalidInput();
  }

  private static String tryHelp(CommandLine cmd) {
    return "Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for usage.";
  }

  @Override
  public void run() { // reached only through execute() on a command line built by hand: show the usage
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * Refuses a value outside {@code [min, max]} with {@code Invalid value for option '<option>': <value> is not in
   * [min, max]} (or {@code is not >= min} when there is no upper bound).
   */
  static void inRange(CommandSpec spec, String option, long value, long min, long max) {
    final boolean unbounded = max == Integer.MAX_VALUE || max >= Long.MAX_VALUE / 2;
    check(spec, value >= min && value <= max, option, value + (unbounded ? " is not >= " + min
        : " is not in [" + min + ", " + max + "]"));
  }

  /**
   * Refuses a file option (when given) that names no readable regular file, before anything starts: {@code Invalid
   * value for option '--config': /etc/x.yaml: no such file}, not a stack trace from the first read.
   */
  static void readableFile(CommandSpec spec, String option, Path file) {
    if (file == null) {
      return;
    }
    check(spec, Files.exists(file), option, file + ": no such file");
    check(spec, Files.isRegularFile(file), option, file + ": not a file");
    check(spec, Files.isReadable(file), option, file + ": not readable");
  }

  /** Refuses an option's value unless {@code ok}, with {@code Invalid value for option '<option>': <what>}. */
  static void check(CommandSpec spec, boolean ok, String option, String what) {
    if (!ok) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '" + option + "': " + what);
    }
  }

  /** The arguments given after the subcommand's name, for reports that quote the command. */
  static List<String> given(CommandSpec spec) {
    final List<String> all = spec.commandLine().getParseResult().originalArgs();
    final int at = all.indexOf(spec.name());
    return at < 0 ? all : all.subList(at + 1, all.size());
  }

  /** Keeps Ratis's shutdown warnings out of the demo's tables; an explicit {@code -D} setting wins. */
  static void quietRatis() {
    if (System.getProperty(RATIS_LOG_LEVEL) == null) {
      System.setProperty(RATIS_LOG_LEVEL, "error");
    }
  }

  /** The {@code /config} view of a node or cluster: each node's config and the engine's. */
  static Map<String, Object> describe(List<NodeConfig> configs, EngineConfigSource engine) {
    final Map<String, Object> m = new LinkedHashMap<>();
    final Map<String, Object> nodes = new LinkedHashMap<>();
    configs.forEach(c -> nodes.put(c.nodeId(), c.describe()));
    m.put("nodes", nodes);
    m.put("spillway", engine.describe());
    return m;
  }

  private StorageNodeMain() {
  }
}

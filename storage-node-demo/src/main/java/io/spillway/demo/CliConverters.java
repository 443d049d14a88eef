package io.spillway.demo;

import io.spillway.admission.Tier;
import io.spillway.demo.command.TierNames;
import io.spillway.demo.load.RetryPolicy;
import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.raft.PeerAddress;
import io.spillway.demo.strategy.StrategyKind;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * picocli converters of the demo's option types, in one place (the tier and op types are the demo's own today; to
 * move the command line to other types, retarget these). Each refuses bad text with a {@link
 * TypeConversionException} whose message quotes the text and says what was expected; picocli prefixes it with the
 * option, e.g. {@code Invalid value for option '--duration': '3x' is not a duration (e.g. 30s, 500ms)}.
 */
final class CliConverters {
  private CliConverters() {
  }

  /** {@code 30} (seconds, as the options always took), {@code 30s}, {@code 500ms} or {@code 2m}; not negative. */
  static final class Seconds implements ITypeConverter<Duration> {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)?");

    @Override
    public Duration convert(String text) {
      final Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        throw new TypeConversionException("'" + text + "' is not a duration (e.g. 30s, 500ms)");
      }
      final double n = Double.parseDouble(m.group(1));
      final String unit = m.group(2) == null ? "s" : m.group(2);
      final double nanosPerUnit = switch (unit) {
        case "ms" -> 1e6;
        case "m" -> 60e9;
        default -> 1e9;
      };
      return Duration.ofNanos(Math.round(n * nanosPerUnit));
    }
  }

  /** {@code t0}..{@code t5} (any case) or {@code 0}..{@code 5}. */
  static final class TierConverter implements ITypeConverter<Tier> {
    @Override
    public Tier convert(String text) {
      try {
        return TierNames.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("'" + text + "' is not a tier (t0..t5)");
      }
    }
  }

  /** {@code read,write,scan} milliseconds (e.g. {@code 2,4,8}, fractions allowed) or one number for all three. */
  static final class StorageCostConverter implements ITypeConverter<StorageCost> {
    @Override
    public StorageCost convert(String text) {
      final String[] parts = text.split(",", -1);
      boolean numbers = parts.length == 1 || parts.length == 3;
      for (String p : parts) {
        numbers &= p.trim().matches("\\d+(\\.\\d+)?");
      }
      if (!numbers) {
        throw new TypeConversionException("'" + text + "' is not a storage cost (ms, or read,write,scan ms, e.g. "
            + "2,4,8)");
      }
      try {
        return StorageCost.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("'" + text + "' is out of range (each cost in [0, "
            + StorageCost.MAX.toMillis() + "] ms)");
      }
    }
  }

  /** An admission strategy by its command-line name, e.g. {@code token-bucket}. */
  static final class StrategyConverter implements ITypeConverter<StrategyKind> {
    @Override
    public StrategyKind convert(String text) {
      try {
        return StrategyKind.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("'" + text + "' is not a strategy (" + String.join(", ",
            java.util.Arrays.stream(StrategyKind.values()).map(StrategyKind::wireName).toList()) + ")");
      }
    }
  }

  /** How callers retry: {@code naive}, {@code backoff}, {@code helper} or {@code none}. */
  static final class RetryModeConverter implements ITypeConverter<RetryPolicy.Mode> {
    @Override
    public RetryPolicy.Mode convert(String text) {
      try {
        return RetryPolicy.Mode.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("'" + text + "' is not a retry mode (naive, backoff, helper, none)");
      }
    }
  }

  /** {@code host:port} of a RESP target. */
  static final class HostPort implements ITypeConverter<InetSocketAddress> {
    @Override
    public InetSocketAddress convert(String text) {
      final String t = text.trim();
      final int colon = t.lastIndexOf(':');
      final String port = colon < 0 ? "" : t.substring(colon + 1);
      if (colon <= 0 || !port.matches("\\d{1,5}") || Integer.parseInt(port) > 65535) {
        throw new TypeConversionException("'" + text + "' is not host:port");
      }
      return new InetSocketAddress(t.substring(0, colon), Integer.parseInt(port));
    }
  }

  /** {@code id=host:raftPort}, one entry of {@code --peers}. */
  static final class Peer implements ITypeConverter<PeerAddress> {
    @Override
    public PeerAddress convert(String text) {
      try {
        final List<PeerAddress> one = PeerAddress.parseList(text);
        return one.get(0);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("'" + text + "' is not a peer (id=host:port): " + e.getMessage());
      }
    }
  }
}

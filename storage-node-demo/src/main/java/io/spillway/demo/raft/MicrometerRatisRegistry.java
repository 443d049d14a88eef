package io.spillway.demo.raft;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.ratis.metrics.LongCounter;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.Timekeeper;

/**
 * One Ratis metric registry (a Raft member's or server's component) as Micrometer meters: {@code
 * ratis.<component>.<name>}, tagged {@code member} with the registry's prefix. A Ratis counter can go down, so it is
 * a gauge over a {@link LongAdder}.
 */
final class MicrometerRatisRegistry implements RatisMetricRegistry {
  private final MetricRegistryInfo info;
  private final MeterRegistry target;
  private final Tags tags;
  private final Map<String, Meter> meters = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();

  MicrometerRatisRegistry(MetricRegistryInfo info, MeterRegistry target) {
    this.info = info;
    this.target = target;
    this.tags = Tags.of("member", info.getPrefix());
  }

  @Override
  public Timekeeper timer(String name) {
    final Timer timer = (Timer) meters.computeIfAbsent(name,
        n -> Timer.builder(meterName(n)).tags(tags).register(target));
    return () -> {
      final long start = System.nanoTime();
      return () -> {
        final long elapsed = System.nanoTime() - start;
        timer.record(elapsed, TimeUnit.NANOSECONDS);
        return elapsed;
      };
    };
  }

  @Override
  public LongCounter counter(String name) {
    final LongAdder count = counters.computeIfAbsent(name, n -> {
      final LongAdder adder = new LongAdder();
      meters.put(n, Gauge.builder(meterName(n), adder, LongAdder::sum).tags(tags).strongReference(true)
          .register(target));
      return adder;
    });
    return new LongCounter() {
      @Override
      public void inc(long n) {
        count.add(n);
      }

      @Override
      public void dec(long n) {
        count.add(-n);
      }

      @Override
      public long getCount() {
        return count.sum();
      }
    };
  }

  @Override
  public boolean remove(String name) {
    counters.remove(name);
    final Meter meter = meters.remove(name);
    if (meter == null) {
      return false;
    }
    target.remove(meter);
    return true;
  }

  @Override
  public <T> void gauge(String name, Supplier<Supplier<T>> gaugeSupplier) {
    final Supplier<T> value = gaugeSupplier.get();
    meters.computeIfAbsent(name, n -> Gauge.builder(meterName(n), value, MicrometerRatisRegistry::toDouble)
        .tags(tags).strongReference(true).register(target));
  }

  @Override
  public MetricRegistryInfo getMetricRegistryInfo() {
    return info;
  }

  /** Removes every meter of this registry from the target. */
  void removeAll() {
    meters.keySet().forEach(this::remove);
  }

  private String meterName(String name) {
    return info.getApplicationName() + "." + info.getMetricsComponentName() + "." + name;
  }

  private static double toDouble(Supplier<?> value) {
    final Object v = value.get();
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }
}

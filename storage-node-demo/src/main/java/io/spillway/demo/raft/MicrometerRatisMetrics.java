package io.spillway.demo.raft;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.util.TimeDuration;

/**
 * Apache Ratis's metrics on Micrometer: the {@link MetricRegistries} Ratis finds through
 * {@link java.util.ServiceLoader} ({@code META-INF/services}), in place of {@code ratis-metrics-default}. Every Ratis
 * timer, counter and gauge is a Micrometer meter in {@link Metrics#globalRegistry}, named
 * {@code ratis.<component>.<name>} and tagged with the Raft member or server it belongs to; the node's commands add
 * their Prometheus registry to the global one ({@code AdminHttpServer.newRegistry}), so the meters appear on the
 * admin port's {@code /metrics}. Where
 * nothing is added (tests, the shootout's clusters) the meters are Micrometer's no-ops.
 *
 * <p>Why not the default: its Dropwizard timers keep an exponentially decaying reservoir, one
 * {@code ConcurrentSkipListMap} insert per update, and were 5–6 % of a CPU profile of the demo under overload on a
 * 2-core host (docs/storage-node-demo.md), for metrics nothing read. A Micrometer timer is a count, a total and a
 * decaying maximum.
 */
public final class MicrometerRatisMetrics extends MetricRegistries {
  private final MeterRegistry target;
  private final Map<MetricRegistryInfo, MicrometerRatisRegistry> registries = new ConcurrentHashMap<>();
  private final List<Consumer<RatisMetricRegistry>> onCreate = new CopyOnWriteArrayList<>();
  private final List<Consumer<RatisMetricRegistry>> onRemove = new CopyOnWriteArrayList<>();

  /** The instance Ratis loads: registers in Micrometer's global registry. */
  public MicrometerRatisMetrics() {
    this(Metrics.globalRegistry);
  }

  /** Registers in {@code target}. */
  public MicrometerRatisMetrics(MeterRegistry target) {
    this.target = target;
  }

  @Override
  public void clear() {
    registries.keySet().forEach(this::remove);
  }

  @Override
  public RatisMetricRegistry create(MetricRegistryInfo info) {
    return registries.computeIfAbsent(info, i -> {
      final MicrometerRatisRegistry r = new MicrometerRatisRegistry(i, target);
      onCreate.forEach(c -> c.accept(r));
      return r;
    });
  }

  @Override
  public boolean remove(MetricRegistryInfo info) {
    final MicrometerRatisRegistry r = registries.remove(info);
    if (r == null) {
      return false;
    }
    onRemove.forEach(c -> c.accept(r));
    r.removeAll();
    return true;
  }

  @Override
  public Optional<RatisMetricRegistry> get(MetricRegistryInfo info) {
    return Optional.ofNullable(registries.get(info));
  }

  @Override
  public Set<MetricRegistryInfo> getMetricRegistryInfos() {
    return Set.copyOf(registries.keySet());
  }

  @Override
  public Collection<RatisMetricRegistry> getMetricRegistries() {
    return List.copyOf(registries.values());
  }

  @Override
  public void addReporterRegistration(Consumer<RatisMetricRegistry> reporter,
      Consumer<RatisMetricRegistry> stopper) {
    onCreate.add(reporter);
    onRemove.add(stopper);
    registries.values().forEach(reporter);
  }

  @Override
  public void removeReporterRegistration(Consumer<RatisMetricRegistry> reporter,
      Consumer<RatisMetricRegistry> stopper) {
    onCreate.remove(reporter);
    onRemove.remove(stopper);
  }

  /** Not available: Ratis's metrics are exported through Micrometer (the admin port's {@code /metrics}). */
  @Override
  public void enableJmxReporter() {
    throw new UnsupportedOperationException(
        "Ratis metrics are exported through Micrometer (the admin port's /metrics), not JMX");
  }

  /** Not available: Ratis's metrics are exported through Micrometer (the admin port's {@code /metrics}). */
  @Override
  public void enableConsoleReporter(TimeDuration consoleReportRate) {
    throw new UnsupportedOperationException(
        "Ratis metrics are exported through Micrometer (the admin port's /metrics), not to the console");
  }
}

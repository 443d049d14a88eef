package io.spillway.admission.path;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link EngineParams} reads a configuration through its public accessors; this checks, field by field and by name,
 * that it holds exactly the values {@link EngineConfig} holds, so that a field added, renamed or converted wrongly on
 * either side fails here rather than in a control loop.
 */
class EngineParamsTest {

  static Stream<EngineConfig> configs() {
    return Stream.of(EngineConfig.defaults(), EngineConfig.builder()
        .limitInitial(3).limitMin(1).limitMax(40).dryRun(true).tiersNeverShed(Tier.T0, Tier.T1).tiersCohorts(7)
        .queuesCapacity(OpType.SCAN, 11).queuesTarget(OpType.WRITE, Duration.ofMillis(13))
        .queuesInterval(OpType.WRITE, Duration.ofMillis(170)).signalsLatencyScope(OpType.READ, OpSet.READS)
        .pidTick(Duration.ofMillis(70)).build());
  }

  @ParameterizedTest
  @MethodSource("configs")
  void holdsEveryValueOfTheConfigurationUnderItsName(EngineConfig config) throws ReflectiveOperationException {
    EngineParams params = EngineParams.of(config);
    Set<String> mirrored = instanceFields(EngineParams.class).map(Field::getName).collect(Collectors.toSet());
    mirrored.remove("config");
    Set<String> configured = instanceFields(EngineConfig.class).map(Field::getName).collect(Collectors.toSet());
    assertThat(mirrored).isEqualTo(configured);
    for (String name : configured) {
      Object expected = read(EngineConfig.class, name, config);
      Object actual = read(EngineParams.class, name, params);
      assertThat(Arrays.deepEquals(new Object[] {actual}, new Object[] {expected}))
          .as("%s: %s, expected %s", name, Arrays.deepToString(new Object[] {actual}),
              Arrays.deepToString(new Object[] {expected}))
          .isTrue();
    }
    assertThat(params.config()).isSameAs(config);
    assertThat(params.levels()).isEqualTo(Tier.count() * config.tiersCohorts());
    assertThat(params.firstSheddableLevel()).isEqualTo(config.tiersNeverShed().size() * config.tiersCohorts());
    assertThat(params.lastCriticalTier()).isEqualTo(Math.min(Tier.count() - 1, config.tiersNeverShed().size()));
  }

  private static Stream<Field> instanceFields(Class<?> type) {
    return Arrays.stream(type.getDeclaredFields()).filter(f -> !Modifier.isStatic(f.getModifiers()));
  }

  private static Object read(Class<?> type, String name, Object instance) throws ReflectiveOperationException {
    Field field = type.getDeclaredField(name);
    field.setAccessible(true);
    return field.get(instance);
  }
}

package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.admission.AdmissionEngine;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Micrometer and snakeyaml-engine are optional dependencies: an embedder who uses neither needs neither. The engine
 * (top-level package), the control package and the listener SPI must never reference them.
 */
class OptionalDependencyTest {

  private static final List<String> OPTIONAL = List.of("io/micrometer/", "org/snakeyaml/");

  @Test
  void coreClassesDoNotReferenceOptionalLibraries() throws IOException, URISyntaxException {
    Path classes = Path.of(AdmissionEngine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path base = classes.resolve("io/spillway/admission");
    List<Path> core;
    try (Stream<Path> files = Files.walk(base)) {
      core = files.filter(p -> p.toString().endsWith(".class"))
          .filter(p -> {
            String rel = base.relativize(p).toString().replace('\\', '/');
            return !rel.startsWith("config/") && !rel.startsWith("metrics/");
          })
          .collect(Collectors.toList());
    }
    assertThat(core).extracting(p -> base.relativize(p).toString().replace('\\', '/'))
        .contains("AdmissionEngine.class", "event/AdmissionListeners.class");
    for (Path file : core) {
      // Class names in the constant pool are stored as (modified) UTF-8: an ASCII package prefix appears verbatim.
      String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      for (String prefix : OPTIONAL) {
        assertThat(bytes).as(base.relativize(file) + " references " + prefix).doesNotContain(prefix);
      }
    }
  }

  @Test
  void theEngineRunsWithTheOptionalLibrariesHidden() throws Exception {
    ClassLoader hiding = new HidingClassLoader(getClass().getClassLoader());
    Class<?> engineClass = Class.forName("io.spillway.admission.AdmissionEngine", true, hiding);
    assertThat(engineClass.getClassLoader()).isSameAs(hiding);
    Class<?> configClass = Class.forName("io.spillway.admission.EngineConfig", true, hiding);
    Object engine = engineClass.getMethod("create", configClass).invoke(null, configClass.getMethod("defaults")
        .invoke(null));
    Object registry = engineClass.getMethod("clients").invoke(engine);
    Object client = registry.getClass().getMethod("register", String.class).invoke(registry, "web-1");
    Class<?> op = Class.forName("io.spillway.admission.OpType", true, hiding);
    Class<?> tier = Class.forName("io.spillway.admission.Tier", true, hiding);
    Class<?> handle = Class.forName("io.spillway.admission.ClientHandle", true, hiding);
    Method acquire = engineClass.getMethod("tryAcquire", op, tier, handle);
    long token = (long) acquire.invoke(engine, op.getEnumConstants()[0], tier.getEnumConstants()[1], client);
    assertThat(token).isPositive();
    Class<?> outcome = Class.forName("io.spillway.admission.Outcome", true, hiding);
    assertThat(engineClass.getMethod("release", long.class, outcome, long.class)
        .invoke(engine, token, outcome.getEnumConstants()[0], 1_000L)).isEqualTo(true);
    engineClass.getMethod("tick").invoke(engine);

    Class<?> listeners = Class.forName("io.spillway.admission.event.AdmissionListeners", true, hiding);
    assertThat(listeners.getMethod("hasAny").invoke(listeners.getConstructor().newInstance())).isEqualTo(false);

    // and the hiding is real: the optional integrations cannot load
    assertThatThrownBy(() -> Class.forName("io.spillway.admission.metrics.SpillwayMetrics", true, hiding))
        .isInstanceOf(NoClassDefFoundError.class);
  }

  /**
   * Loads Spillway's classes itself (child first) from the test class path, and refuses Micrometer and
   * snakeyaml-engine as if they were absent.
   */
  private static final class HidingClassLoader extends ClassLoader {
    private final ClassLoader source;

    HidingClassLoader(ClassLoader source) {
      super(ClassLoader.getPlatformClassLoader());
      this.source = source;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        String path = name.replace('.', '/');
        for (String prefix : OPTIONAL) {
          if (path.startsWith(prefix)) {
            throw new ClassNotFoundException(name + " is hidden by this test");
          }
        }
        Class<?> loaded = findLoadedClass(name);
        if (loaded == null) {
          try {
            loaded = getParent().loadClass(name);
          } catch (ClassNotFoundException notPlatform) {
            loaded = define(name, path);
          }
        }
        if (resolve) {
          resolveClass(loaded);
        }
        return loaded;
      }
    }

    private Class<?> define(String name, String path) throws ClassNotFoundException {
      try (InputStream in = source.getResourceAsStream(path + ".class")) {
        if (in == null) {
          throw new ClassNotFoundException(name);
        }
        byte[] bytes = in.readAllBytes();
        return defineClass(name, bytes, 0, bytes.length);
      } catch (IOException e) {
        throw new ClassNotFoundException(name, e);
      }
    }
  }
}

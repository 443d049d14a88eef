package io.spillway.admission.module;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.AdmissionEngine;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Nothing outside the exported packages is reachable through the API: every public or protected member of every
 * public type in an exported package (field, constructor and method signatures with their generic arguments, thrown
 * types, supertypes and type-parameter bounds) names only JDK types, types of this module's exported packages, and
 * types of the exported packages of the modules it {@code requires transitive}. An optional dependency
 * ({@code requires static}) may appear only in the package that integrates it. Read from the compiled classes and
 * the compiled module descriptor, so a signature that leaks an internal type (say a public method returning
 * {@code io.spillway.admission.path.AdmissionPath}) fails here even though the tests run on the class path.
 */
class ModuleApiTest {

  private static final String MODULE = "io.spillway.admission";
  private static final Set<String> EXPORTED = Set.of("io.spillway.admission", "io.spillway.admission.config",
      "io.spillway.admission.event", "io.spillway.admission.metrics");
  private static final Set<String> INTERNAL = Set.of("io.spillway.admission.path", "io.spillway.admission.queue",
      "io.spillway.admission.loop", "io.spillway.admission.control", "io.spillway.admission.config.keys");
  /** Optional dependencies and the one exported package allowed to name them: the integration it exists for. */
  private static final Map<String, String> OPTIONAL = Map.of("io.micrometer.", "io.spillway.admission.metrics");

  @Test
  void exactlyTheApiPackagesAreExportedAndTheMachineryIsNot() throws Exception {
    ModuleDescriptor module = descriptor(AdmissionEngine.class);
    assertThat(module.name()).isEqualTo(MODULE);
    assertThat(exported(module)).isEqualTo(EXPORTED);
    Set<String> packages = packagesOf(root(AdmissionEngine.class));
    packages.removeAll(EXPORTED);
    assertThat(packages).as("the packages that are not exported").isEqualTo(INTERNAL);
  }

  @Test
  void publicSignaturesNameOnlyJdkExportedAndTransitivelyRequiredTypes() throws Exception {
    List<String> leaks = leaks(AdmissionEngine.class.getClassLoader());
    assertThat(leaks).isEmpty();
  }

  @Test
  void theRequiresTransitiveModulesAreTheOnesTheApiNames() throws Exception {
    assertThat(transitiveExports()).containsExactlyInAnyOrder("io.spillway.codel", "io.spillway.pid");
  }

  /** Every signature in the exported packages that names a type outside what a consumer can read. */
  static List<String> leaks(ClassLoader loader) throws Exception {
    Set<String> allowed = new HashSet<>(EXPORTED);
    allowed.addAll(transitiveExports());
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : apiTypes(loader)) {
      String where = type.getName();
      check(leaks, allowed, type, where + " extends", type.getGenericSuperclass());
      for (Type i : type.getGenericInterfaces()) {
        check(leaks, allowed, type, where + " implements", i);
      }
      for (TypeVariable<?> v : type.getTypeParameters()) {
        check(leaks, allowed, type, where + "<" + v.getName() + ">", v.getBounds());
      }
      for (Field f : type.getDeclaredFields()) {
        if (visible(f.getModifiers()) && !f.isSynthetic()) {
          check(leaks, allowed, type, where + "." + f.getName(), f.getGenericType());
        }
      }
      List<Executable> executables = new ArrayList<>(List.of(type.getDeclaredConstructors()));
      executables.addAll(List.of(type.getDeclaredMethods()));
      for (Executable e : executables) {
        if (!visible(e.getModifiers()) || e.isSynthetic() || (e instanceof Method m && m.isBridge())) {
          continue;
        }
        String member = where + "." + (e instanceof Constructor ? "<init>" : e.getName());
        check(leaks, allowed, type, member + " parameter", e.getGenericParameterTypes());
        check(leaks, allowed, type, member + " throws", e.getGenericExceptionTypes());
        for (TypeVariable<?> v : e.getTypeParameters()) {
          check(leaks, allowed, type, member + " <" + v.getName() + ">", v.getBounds());
        }
        if (e instanceof Method m) {
          check(leaks, allowed, type, member + " returns", m.getGenericReturnType());
        }
      }
    }
    return leaks;
  }

  /** The public types of the exported packages, with their public and protected member types. */
  private static List<Class<?>> apiTypes(ClassLoader loader) throws Exception {
    Path root = root(AdmissionEngine.class);
    List<Class<?>> types = new ArrayList<>();
    for (String pkg : new TreeSet<>(EXPORTED)) {
      try (Stream<Path> files = Files.list(root.resolve(pkg.replace('.', '/')))) {
        for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
          String simple = file.getFileName().toString().replace(".class", "");
          if (simple.contains("$") || simple.equals("package-info")) {
            continue;
          }
          Class<?> type = Class.forName(pkg + "." + simple, false, loader);
          if (Modifier.isPublic(type.getModifiers())) {
            addWithMembers(types, type);
          }
        }
      }
    }
    assertThat(types).as("public types found").hasSizeGreaterThan(20);
    return types;
  }

  private static void addWithMembers(List<Class<?>> types, Class<?> type) {
    types.add(type);
    for (Class<?> member : type.getDeclaredClasses()) {
      if (visible(member.getModifiers())) {
        addWithMembers(types, member);
      }
    }
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void check(List<String> leaks, Set<String> allowed, Class<?> owner, String where, Type... types) {
    for (Type t : types) {
      check(leaks, allowed, owner, where, t, new HashSet<>());
    }
  }

  private static void check(List<String> leaks, Set<String> allowed, Class<?> owner, String where, Type t,
      Set<Type> seen) {
    if (t == null || !seen.add(t)) {
      return;
    }
    if (t instanceof Class<?> c) {
      while (c.isArray()) {
        c = c.getComponentType();
      }
      if (!c.isPrimitive() && !readable(c, allowed, owner)) {
        leaks.add(where + ": " + c.getName());
      }
    } else if (t instanceof ParameterizedType p) {
      check(leaks, allowed, owner, where, p.getRawType(), seen);
      check(leaks, allowed, owner, where, p.getOwnerType(), seen);
      for (Type a : p.getActualTypeArguments()) {
        check(leaks, allowed, owner, where, a, seen);
      }
    } else if (t instanceof WildcardType w) {
      for (Type b : w.getUpperBounds()) {
        check(leaks, allowed, owner, where, b, seen);
      }
      for (Type b : w.getLowerBounds()) {
        check(leaks, allowed, owner, where, b, seen);
      }
    } else if (t instanceof GenericArrayType g) {
      check(leaks, allowed, owner, where, g.getGenericComponentType(), seen);
    } else if (t instanceof TypeVariable<?> v) {
      for (Type b : v.getBounds()) {
        check(leaks, allowed, owner, where, b, seen);
      }
    }
  }

  private static boolean readable(Class<?> c, Set<String> allowed, Class<?> owner) {
    Module module = c.getModule();
    if (module.isNamed() && module.getLayer() == ModuleLayer.boot() && module.getName().startsWith("java.")
        && module.isExported(c.getPackageName())) {
      return true;
    }
    if (allowed.contains(c.getPackageName())) {
      return Modifier.isPublic(c.getModifiers());
    }
    return OPTIONAL.entrySet().stream()
        .anyMatch(e -> c.getName().startsWith(e.getKey()) && owner.getPackageName().equals(e.getValue()));
  }

  /** The packages exported by the modules {@code io.spillway.admission} requires transitively. */
  private static Set<String> transitiveExports() throws Exception {
    Set<String> transitive = descriptor(AdmissionEngine.class).requires().stream()
        .filter(r -> r.modifiers().contains(Requires.Modifier.TRANSITIVE)).map(Requires::name)
        .collect(Collectors.toSet());
    Set<String> packages = new HashSet<>();
    for (Class<?> anchor : List.of(io.spillway.codel.MpscCodelQueue.class, io.spillway.pid.PidController.class)) {
      ModuleDescriptor d = descriptor(anchor);
      if (transitive.contains(d.name())) {
        packages.addAll(exported(d));
      }
    }
    assertThat(packages).as("exports of %s", transitive).isNotEmpty();
    return packages;
  }

  private static Set<String> exported(ModuleDescriptor d) {
    return d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
  }

  private static Set<String> packagesOf(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().equals(
          "module-info.class")).map(f -> root.relativize(f.getParent()).toString().replace('/', '.'))
          .collect(Collectors.toSet());
    }
  }

  private static ModuleDescriptor descriptor(Class<?> anchor) throws IOException, URISyntaxException {
    Path root = root(anchor);
    if (Files.isDirectory(root)) {
      try (InputStream in = Files.newInputStream(root.resolve("module-info.class"))) {
        return ModuleDescriptor.read(in);
      }
    }
    try (java.util.jar.JarFile jar = new java.util.jar.JarFile(root.toFile());
        InputStream in = jar.getInputStream(jar.getEntry("module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  private static Path root(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}

package io.spillway.demo.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.NativeLibraryLoader;
import org.rocksdb.RocksDB;

/**
 * Loads RocksDB's JNI library from a directory the node owns instead of {@code java.io.tmpdir}.
 *
 * <p>{@link NativeLibraryLoader#loadLibrary(String)} extracts the platform library from the rocksdbjni jar into the
 * given directory (deleted again on normal JVM exit) and loads it; {@link RocksDB#loadLibrary()} then finds the
 * loader initialised and only records the state. The system property {@value #DIR_PROPERTY} overrides the
 * directory (the build points it at {@code target/native}).
 */
public final class RocksDbNativeLibrary {
  /** System property naming the extraction directory. */
  public static final String DIR_PROPERTY = "spillway.native.dir";

  private static Path loadedFrom;

  private RocksDbNativeLibrary() {
  }

  /**
   * Extracts and loads the library once per JVM.
   *
   * @param defaultDir where to extract when {@value #DIR_PROPERTY} is not set, e.g. {@code <data-dir>/native}
   * @return the directory the library was loaded from
   */
  public static synchronized Path load(Path defaultDir) {
    if (loadedFrom != null) {
      return loadedFrom;
    }
    final String override = System.getProperty(DIR_PROPERTY);
    final Path dir = (override == null || override.isBlank() ? defaultDir : Path.of(override)).toAbsolutePath();
    try {
      Files.createDirectories(dir);
      NativeLibraryLoader.getInstance().loadLibrary(dir.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract the RocksDB native library into " + dir, e);
    }
    RocksDB.loadLibrary();
    loadedFrom = dir;
    return dir;
  }
}

package io.spillway.admission.config;

import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Watches a config file and swaps a valid new version into the running engine; an invalid version is refused, the
 * running config stays, and the error is logged and counted.
 *
 * <p>Change detection: a {@link WatchService} on the file's directory wakes the watcher early, and a poll of the
 * file's fingerprint (modification time, size and SHA-256 of the content) every {@code pollInterval} catches what
 * the watch service misses (network and container file systems, symlink swaps as done for Kubernetes ConfigMaps,
 * where events name {@code ..data} rather than the file). A detected change is debounced: the file is loaded once
 * it has been quiet for {@code debounce}, so an editor's write-rename-chmod sequence causes one reload.
 *
 * <p>{@link #reloadNow()} runs the same reload logic synchronously; tests drive it without file-system events.
 * Reloads are serialised. The watcher thread is a daemon; {@link #close()} stops it and waits for it, bounded.
 *
 * @param <C> the immutable config type
 */
public final class ConfigWatcher<C> implements Closeable {

  private static final System.Logger LOG = System.getLogger(ConfigWatcher.class.getName());

  private final Path file;
  private final ConfigLoader<C> loader;
  private final Consumer<? super C> target;
  private final Consumer<? super ReloadResult> onReload;
  private final long pollNanos;
  private final long debounceNanos;
  private final AtomicLong applied = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final Object reloadLock = new Object();
  private volatile C current;
  private volatile boolean closed;
  private byte[] lastSeenFingerprint;
  private Thread thread;
  private WatchService watchService;

  /**
   * Creates a watcher; call {@link #start()} to watch, or drive it with {@link #reloadNow()}.
   *
   * @param file the config file
   * @param loader loads and validates the file
   * @param running the config the engine runs now (the base of the first diff)
   * @param target receives each valid new config, e.g. {@code engine::reconfigure}; an
   *     {@link IllegalArgumentException} or {@link IllegalStateException} it throws refuses the reload
   * @param onReload told of every reload that applied or was refused (not of unchanged files); its exceptions are
   *     logged and ignored
   * @param pollInterval how often the fingerprint is checked, in (0, 1h]
   * @param debounce how long the file must stay unchanged before it is loaded, in [0, 1m]
   */
  public ConfigWatcher(Path file, ConfigLoader<C> loader, C running, Consumer<? super C> target,
      Consumer<? super ReloadResult> onReload, Duration pollInterval, Duration debounce) {
    this.file = Objects.requireNonNull(file, "file").toAbsolutePath();
    this.loader = Objects.requireNonNull(loader, "loader");
    this.current = Objects.requireNonNull(running, "running");
    this.target = Objects.requireNonNull(target, "target");
    this.onReload = Objects.requireNonNull(onReload, "onReload");
    if (pollInterval.isNegative() || pollInterval.isZero() || pollInterval.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException("pollInterval must be > 0 and <= 1h, was " + pollInterval);
    }
    if (debounce.isNegative() || debounce.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("debounce must be >= 0 and <= 1m, was " + debounce);
    }
    this.pollNanos = pollInterval.toNanos();
    this.debounceNanos = debounce.toNanos();
  }

  /** Starts the daemon watcher thread; the file's current content counts as seen (the caller loaded it). */
  public synchronized ConfigWatcher<C> start() throws IOException {
    if (thread != null || closed) {
      throw new IllegalStateException("watcher already started or closed");
    }
    lastSeenFingerprint = fingerprint();
    try {
      watchService = FileSystems.getDefault().newWatchService();
      file.getParent().register(watchService, StandardWatchEventKinds.ENTRY_CREATE,
          StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE);
    } catch (IOException | UnsupportedOperationException e) {
      LOG.log(Level.INFO, "no file-system events for {0} ({1}); polling every {2} ms", file, e,
          TimeUnit.NANOSECONDS.toMillis(pollNanos));
      watchService = null;
    }
    thread = new Thread(this::watchLoop, "spillway-config-watcher");
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  /** Loads the file now and, if it is valid and differs, applies it. Safe to call from any thread. */
  public ReloadResult reloadNow() {
    synchronized (reloadLock) {
      String source = file.toString();
      C next;
      try {
        next = loader.load(file);
      } catch (ConfigException e) {
        return refused(source, e.problems());
      } catch (IOException | RuntimeException e) {
        return refused(source, List.of(new ConfigProblem("", "cannot read: " + e, source)));
      }
      ConfigDiff diff = loader.diff(current, next);
      if (diff.isEmpty()) {
        return new ReloadResult(ReloadResult.Status.UNCHANGED, source, diff, List.of());
      }
      try {
        target.accept(next);
      } catch (IllegalArgumentException | IllegalStateException e) {
        return refused(source, List.of(new ConfigProblem("", "refused by the engine: " + e.getMessage(), source)));
      }
      current = next;
      applied.incrementAndGet();
      ReloadResult result = new ReloadResult(ReloadResult.Status.APPLIED, source, diff, List.of());
      LOG.log(Level.INFO, "{0}", result);
      notifyListener(result);
      return result;
    }
  }

  /** The config last applied (or the one given at construction). */
  public C current() {
    return current;
  }

  /** How many reloads were applied. */
  public long appliedCount() {
    return applied.get();
  }

  /** How many reloads were refused (unreadable or invalid file, or refused by the engine). */
  public long rejectedCount() {
    return rejected.get();
  }

  /** Stops watching and waits (at most 5 s) for the watcher thread to end. */
  @Override
  public void close() throws IOException {
    Thread running;
    synchronized (this) {
      closed = true;
      running = thread;
      if (watchService != null) {
        watchService.close();
      }
    }
    if (running != null && running != Thread.currentThread()) {
      running.interrupt();
      try {
        running.join(TimeUnit.SECONDS.toMillis(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private ReloadResult refused(String source, List<ConfigProblem> problems) {
    rejected.incrementAndGet();
    ReloadResult result = new ReloadResult(ReloadResult.Status.REJECTED, source, new ConfigDiff(List.of()), problems);
    LOG.log(Level.WARNING, "{0}", result);
    notifyListener(result);
    return result;
  }

  private void notifyListener(ReloadResult result) {
    try {
      onReload.accept(result);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "reload listener failed", e);
    }
  }

  private void watchLoop() {
    long changedAt = -1;
    while (!closed) {
      try {
        awaitEvent(changedAt < 0 ? pollNanos : Math.min(pollNanos, debounceNanos));
        byte[] seen = fingerprint();
        long now = System.nanoTime();
        if (!Arrays.equals(seen, lastSeenFingerprint)) {
          lastSeenFingerprint = seen;
          changedAt = now;
        } else if (changedAt >= 0 && now - changedAt >= debounceNanos) {
          changedAt = -1;
          reloadNow();
        }
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "config watcher error, still watching " + file, e);
      }
    }
  }

  /** Waits for a directory event (which only wakes the loop early) or the timeout. */
  private void awaitEvent(long timeoutNanos) throws InterruptedException {
    if (watchService == null) {
      TimeUnit.NANOSECONDS.sleep(Math.max(1, timeoutNanos));
      return;
    }
    WatchKey key = watchService.poll(Math.max(1, timeoutNanos), TimeUnit.NANOSECONDS);
    if (key != null) {
      key.pollEvents();
      key.reset();
    }
  }

  /** Modification time, size and content hash; a missing or unreadable file has an empty fingerprint. */
  private byte[] fingerprint() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      long size = Files.size(file);
      sha.update(Long.toString(size).getBytes(StandardCharsets.UTF_8));
      sha.update(Files.getLastModifiedTime(file).toString().getBytes(StandardCharsets.UTF_8));
      if (size <= ConfigLoader.MAX_FILE_BYTES) {
        sha.update(Files.readAllBytes(file));
      }
      return sha.digest();
    } catch (IOException e) {
      return new byte[0];
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by the Java platform", e);
    }
  }
}

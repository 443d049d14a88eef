package io.spillway.demo.pipeline;

import io.spillway.admission.Outcome;
import io.spillway.demo.strategy.AdmissionStrategy;
import io.spillway.demo.strategy.StrategyKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test strategy that holds every request it is given until the test answers it: {@link #admit} hands it over on
 * the executor it came with, as the engine dispatches a queued request; {@link #reject} answers {@code -BUSY}.
 * Records the order of the submissions, every release's outcome and the first release's times. Test threads only,
 * one at a time.
 */
public final class HeldRequests implements AdmissionStrategy {
  private final List<RequestPipeline.ClassifiedRequest> requests = new ArrayList<>();
  private final List<Executor> executors = new ArrayList<>();
  private final List<Callback> callbacks = new ArrayList<>();
  /** Releases so far. */
  public final AtomicInteger releases = new AtomicInteger();
  /** Every release's outcome, in release order. */
  public final List<Outcome> outcomes = new CopyOnWriteArrayList<>();
  /** The first release's outcome. */
  public final CompletableFuture<Outcome> released = new CompletableFuture<>();
  /** The first release's service time. */
  public final CompletableFuture<Long> releasedServiceNanos = new CompletableFuture<>();
  /** The first release's wait for a storage thread. */
  public final CompletableFuture<Long> releasedNodeWaitNanos = new CompletableFuture<>();

  @Override
  public void submit(RequestPipeline.ClassifiedRequest request, Executor executor, Callback callback) {
    requests.add(request);
    executors.add(executor);
    callbacks.add(callback);
  }

  /** The held requests, in submission order. */
  public List<RequestPipeline.ClassifiedRequest> requests() {
    return requests;
  }

  /** Grants request {@code index} a permit, on the executor it was submitted with. */
  public void admit(int index) {
    final Callback callback = callbacks.get(index);
    executors.get(index).execute(() -> callback.onAdmitted(index + 1));
  }

  /** Drops request {@code index} from the queue: the rejection handed over on its executor, as the engine does. */
  public void drop(int index, String reason) {
    final Callback callback = callbacks.get(index);
    executors.get(index).execute(() -> callback.onRejected(reason, 1_000_000L));
  }

  /** Rejects request {@code index}. */
  public void reject(int index, String reason) {
    callbacks.get(index).onRejected(reason, 1_000_000L);
  }

  @Override
  public void release(long permit, Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    releases.incrementAndGet();
    outcomes.add(outcome);
    released.complete(outcome);
    releasedServiceNanos.complete(serviceNanos);
    releasedNodeWaitNanos.complete(nodeWaitNanos);
  }

  @Override
  public long pending() {
    return 0;
  }

  @Override
  public StrategyKind kind() {
    return StrategyKind.SPILLWAY;
  }
}

package io.spillway.demo.pipeline;

import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommand;
import io.spillway.demo.command.OpType;
import io.spillway.demo.command.Tier;
import io.spillway.demo.resp.RespReply;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The node's request path for data commands, in one place: <b>classify → decide → execute</b>.
 *
 * <ol>
 *   <li><b>classify</b> (on the Netty event loop): op type (READ for GET/MGET, WRITE for SET/DEL, SCAN for RANGE),
 *       the connection's tier and client name, the partitions the keys map to, the arrival time.</li>
 *   <li><b>decide</b>: admit or reject with a {@link Rejection} ({@code -BUSY <REASON> retry_after_ms=<n>
 *       tier=<tN>}). The admission engine plugs in here; until then every request is admitted and only a full
 *       storage executor rejects ({@code QUEUE_FULL}).</li>
 *   <li><b>execute</b>: hand the request to the bounded {@link StorageExecutor}; the reply future completes on a
 *       storage or Raft thread, or with a timeout error after {@code requestTimeout}.</li>
 * </ol>
 * {@link #submit} never blocks, so the event loop never waits on storage.
 */
public final class RequestPipeline {
  /** Base of the retry-after hint of a {@code QUEUE_FULL} rejection; the hint is jittered up to twice this. */
  static final long QUEUE_FULL_RETRY_AFTER_MS = 25;

  /**
   * A classified request: what the admission decision is based on.
   *
   * @param op op type
   * @param tier the connection's tier
   * @param client the client name ({@code CLIENT SETNAME}) or {@code default}
   * @param partitions the partitions the request touches (all of them for a range scan)
   * @param command the command to run
   * @param arrivalNanos {@link System#nanoTime()} when the command was decoded
   */
  public record ClassifiedRequest(OpType op, Tier tier, String client, int[] partitions, DataCommand command,
      long arrivalNanos) {
  }

  private final CommandExecutor executor;
  private final StorageExecutor storage;
  private final ShardMap shards;
  private final long requestTimeoutMillis;
  private final PipelineMetrics metrics;

  /**
   * @param executor runs commands against the partitions
   * @param storage the bounded pool storage work runs on
   * @param shards key → partition map
   * @param requestTimeout longest time a request may take before the client gets a timeout error
   */
  public RequestPipeline(CommandExecutor executor, StorageExecutor storage, ShardMap shards, Duration requestTimeout,
      PipelineMetrics metrics) {
    if (requestTimeout.toMillis() < 1) {
      throw new IllegalArgumentException("requestTimeout must be >= 1 ms, was " + requestTimeout.toMillis() + " ms");
    }
    this.executor = executor;
    this.storage = storage;
    this.shards = shards;
    this.requestTimeoutMillis = requestTimeout.toMillis();
    this.metrics = metrics;
  }

  /**
   * Classifies, decides and schedules a data command. Called on the event loop; never blocks.
   *
   * @param tier the connection's tier
   * @param client the connection's client name
   * @return the reply: the command's result, a {@code -BUSY} rejection, or an error
   */
  public CompletableFuture<RespReply> submit(Tier tier, String client, DataCommand command) {
    final ClassifiedRequest request = classify(tier, client, command);
    final Rejection rejection = decide(request);
    if (rejection != null) {
      metrics.finished(request.op(), PipelineMetrics.Outcome.BUSY, request.arrivalNanos(), false);
      return CompletableFuture.completedFuture(rejection.toReply());
    }
    return execute(request);
  }

  /** Step 1: what the request is, who sent it, where it goes. */
  ClassifiedRequest classify(Tier tier, String client, DataCommand command) {
    final int[] partitions;
    if (command.opType() == OpType.SCAN) {
      partitions = new int[shards.partitions()];
      Arrays.setAll(partitions, i -> i);
    } else {
      final List<byte[]> keys = command.keys();
      partitions = keys.stream().mapToInt(shards::partitionOf).distinct().toArray();
    }
    return new ClassifiedRequest(command.opType(), tier, client, partitions, command, System.nanoTime());
  }

  /** Step 2: admit ({@code null}) or reject. Every request is admitted until the admission engine is plugged in. */
  Rejection decide(ClassifiedRequest request) {
    return null;
  }

  /** Step 3: run on the storage executor; a full executor rejects with {@code QUEUE_FULL}. */
  private CompletableFuture<RespReply> execute(ClassifiedRequest request) {
    final CompletableFuture<RespReply> result = new CompletableFuture<>();
    metrics.started(request.op());
    try {
      storage.execute(() -> {
        CompletableFuture<RespReply> f;
        try {
          f = executor.execute(request.command());
        } catch (RuntimeException e) {
          f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((reply, error) -> {
          if (error == null) {
            result.complete(reply);
          } else {
            result.completeExceptionally(error);
          }
        });
      });
    } catch (RejectedExecutionException e) {
      metrics.finished(request.op(), PipelineMetrics.Outcome.BUSY, request.arrivalNanos(), true);
      final long retryAfter = QUEUE_FULL_RETRY_AFTER_MS
          + ThreadLocalRandom.current().nextLong(QUEUE_FULL_RETRY_AFTER_MS + 1);
      return CompletableFuture.completedFuture(new Rejection("QUEUE_FULL", retryAfter, request.tier()).toReply());
    }
    return result.orTimeout(requestTimeoutMillis, TimeUnit.MILLISECONDS).handle((reply, error) -> {
      if (error == null) {
        metrics.finished(request.op(), PipelineMetrics.Outcome.OK, request.arrivalNanos(), true);
        return reply;
      }
      final Throwable cause = unwrap(error);
      if (cause instanceof TimeoutException) {
        metrics.finished(request.op(), PipelineMetrics.Outcome.TIMEOUT, request.arrivalNanos(), true);
        return RespReply.err("timeout after " + requestTimeoutMillis + " ms"
            + (request.op() == OpType.WRITE ? " (the write may still be applied)" : ""));
      }
      metrics.finished(request.op(), PipelineMetrics.Outcome.ERROR, request.arrivalNanos(), true);
      return RespReply.err("storage error: " + cause.getMessage());
    });
  }

  private static Throwable unwrap(Throwable t) {
    Throwable c = t;
    while (c instanceof CompletionException && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }
}

package io.spillway.demo.resp;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.redis.FixedRedisMessagePool;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import io.netty.handler.codec.redis.RedisBulkStringAggregator;
import io.netty.handler.codec.redis.RedisDecoder;
import io.netty.handler.codec.redis.RedisEncoder;

/**
 * Puts the node's RESP2 codec on a connection: Netty's netty-codec-redis with the node's bounds and types.
 *
 * <pre>
 * in:  RedisDecoder (inline lines on, up to maxInlineBytes) → {@link RespRequestBounds} (limits, errors)
 *      → RedisBulkStringAggregator → RedisArrayAggregator (maxArrayLength, no nesting) → {@link RespMessages}
 *      → RespCommand or RespProtocolError, in arrival order
 * out: RespReply → {@link RespMessages} → RedisEncoder → bytes
 * </pre>
 */
public final class RespCodec {
  private static final RespMessages MESSAGES = new RespMessages();

  private RespCodec() {
  }

  /** Appends the codec's handlers to {@code pipeline}; the handler that takes RespCommand goes after them. */
  public static void addTo(ChannelPipeline pipeline, RespLimits limits) {
    final PendingInput pendingInput = new PendingInput();
    final RedisDecoder decoder = new RedisDecoder(limits.maxInlineBytes(), FixedRedisMessagePool.INSTANCE, true);
    decoder.setCumulator(pendingInput);
    pipeline.addLast("resp-decoder", decoder)
        .addLast("resp-bounds", new RespRequestBounds(limits, pendingInput))
        .addLast("resp-bulk-aggregator", new RedisBulkStringAggregator())
        .addLast("resp-array-aggregator", new RedisArrayAggregator(limits.maxArrayLength(), 1))
        .addLast("resp-encoder", new RedisEncoder())
        .addLast("resp-messages", MESSAGES);
  }
}

package io.spillway.demo.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import io.spillway.demo.resp.RespCommand;
import org.junit.jupiter.api.Test;

class DataCommandParserTest {
  private final DataCommandParser parser = new DataCommandParser(100, 1000);

  @Test
  void classifiesCommandsByOpType() throws Exception {
    assertThat(parser.parse(RespCommand.of("get", "k")).opType()).isEqualTo(OpType.READ);
    assertThat(parser.parse(RespCommand.of("MGET", "a", "b")).opType()).isEqualTo(OpType.READ);
    assertThat(parser.parse(RespCommand.of("SET", "k", "v")).opType()).isEqualTo(OpType.WRITE);
    assertThat(parser.parse(RespCommand.of("DEL", "a", "b")).opType()).isEqualTo(OpType.WRITE);
    assertThat(parser.parse(RespCommand.of("RANGE", "-", "+")).opType()).isEqualTo(OpType.SCAN);
  }

  @Test
  void parsesRangeBoundsAndLimit() throws Exception {
    final DataCommand.Range open = (DataCommand.Range) parser.parse(RespCommand.of("RANGE", "-", "+"));
    assertThat(open.start()).isNull();
    assertThat(open.end()).isNull();
    assertThat(open.limit()).isEqualTo(100);
    final DataCommand.Range limited = (DataCommand.Range) parser.parse(RespCommand.of("range", "a", "b", "limit", "7"));
    assertThat(new String(limited.start())).isEqualTo("a");
    assertThat(limited.limit()).isEqualTo(7);
  }

  @Test
  void rejectsWrongArityAndBadArguments() {
    assertThatThrownBy(() -> parser.parse(RespCommand.of("GET"))).isInstanceOf(CommandException.class)
        .hasMessage("wrong number of arguments for 'get' command");
    assertThatThrownBy(() -> parser.parse(RespCommand.of("SET", "k", "v", "EX", "10")))
        .hasMessageStartingWith("syntax error");
    assertThatThrownBy(() -> parser.parse(RespCommand.of("RANGE", "a", "b", "LIMIT", "x")))
        .hasMessage("value is not an integer or out of range");
    assertThatThrownBy(() -> parser.parse(RespCommand.of("RANGE", "a", "b", "LIMIT", "1001")))
        .hasMessage("LIMIT must be in [1, 1000], was 1001");
    assertThatThrownBy(() -> parser.parse(RespCommand.of("RANGE", "a", "b", "TOP", "1")))
        .hasMessage("syntax error, expected RANGE start end [LIMIT n]");
  }

  @Test
  void parsesTiers() {
    assertThat(TierNames.parse("t0")).isEqualTo(Tier.T0);
    assertThat(TierNames.parse("T5")).isEqualTo(Tier.T5);
    assertThat(TierNames.parse("3")).isEqualTo(Tier.T3);
    assertThatThrownBy(() -> TierNames.parse("t6")).hasMessage("tier must be one of t0..t5, was 't6'");
  }
}

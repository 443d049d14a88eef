/** A discrete PID controller with anti-windup, bumpless retuning and a derivative filter. */
module io.spillway.pid {
  requires io.spillway.durations;

  exports io.spillway.pid;
}

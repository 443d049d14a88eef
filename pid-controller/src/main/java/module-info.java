/** A discrete PID controller with anti-windup, bumpless retuning and a derivative filter. */
module io.spillway.pid {
  exports io.spillway.pid;
}

# One Hundred Prisoners and a Light Bulb, with n = 3 (SMCDEL's Examples/Prisoners.hs; van
# Ditmarsch and Kooi, "One Hundred Prisoners and a Light Bulb", 2015, the title chapter).
#
# The prisoners will be interrogated one at a time, in an order nobody tells them, in a
# room with a light, switched off at first. Their protocol: prisoner 0 is the counter.
# When he finds the light on, he switches it off and counts. Every other prisoner
# switches the light on the first time he finds it off, and never again. When the
# counter has counted n - 1, he knows that everyone has been interrogated.
#
# SMCDEL's schedule, its prisoners 2, 1, 3, 1 (here 1, 0, 2, 0), and the same check: at
# the end, the counter knows that everyone has been interrogated. As in SMCDEL, the
# counter is the one character: the others' knowledge is not asked about. `--set n=5`
# runs the schedule 1, 0, 2, 0, 3, 0, 4, 0.
const n = 3
characters counter
bool light                     # the light is on
bool counted[n]                # counted[0]: the counter has been in the room;
                               # counted[k]: prisoner k has switched the light on

announce not light and all(k in 0..n: not counted[k])
prior 1
actual not light and all(k in 0..n: not counted[k])

for k in 1..n {
  for turn in 0..2 {
    event interview {
      lit if light weight 2 then light := false, counted[0] := true  # the counter finds the light on, switches it off
      dark if not light then counted[0] := true             # the counter finds it off
      for p in 1..n {                                       # prisoner p comes in and
        on[p] if not light and not counted[p] then          #   finds it off, never switched it on: does,
          light := true, counted[p] := true
        left[p] if light or counted[p] weight p                      #   or leaves it as it is
      }
      counter sees lit | dark | others                      # the counter knows when he is in, and sees the light
      if turn == 0 { actual on[k] } else { actual lit }     # prisoner k comes in, then the counter
    }
    # Only after the last interview does the counter know that everyone has been in.
    check actual knows(counter, all(p in 0..n: counted[p])) == (k == n - 1 and turn == 1)
  }
}

# SMCDEL's prisonGoal: the counter knows that all have been interrogated.
check actual knows(counter, all(p in 0..n: counted[p]))

# The door mat (SMCDEL's Examples/DoorMat.hs; Engesser, Bolander, Mattmüller and Nebel,
# "Cooperative epistemic multi-agent planning for implicit coordination", 2017).
#
# Bob wants to get into the house. Anne knows whether the key is under the door mat;
# Bob does not. Bob can try to take the key from under the mat; Anne can tell him that
# it is there. It is common knowledge that Bob has no key yet.
characters Anne, Bob
bool key_under_mat, bob_has_key
announce not bob_has_key
actual key_under_mat                         # in fact, the key is under the mat
Anne learns key_under_mat

# Bob looks under the mat: he takes the key if it is there, and sees whether it was.
action try_take by Bob {
  took if key_under_mat then key_under_mat := false, bob_has_key := true
  found_nothing if not key_under_mat
  Bob sees took | found_nothing
}
# Anne says that the key is under the mat (a public announcement).
action tell by Anne {
  told if key_under_mat
}

# A plan: Bob just tries.
plan bob_has_key
# An implicitly coordinated plan: at each step the one who acts knows that the step can
# be done and that the rest of the plan then reaches the goal. Bob does not know that
# the key is under the mat until Anne tells him.
plan bob_has_key coordinated

# Answers (SMCDEL's findPlan and its IC plan "Anne: announce; Bob: tryTake"):
#   plan of 1 action: try_take
#   plan of 2 actions: tell, try_take

# The three prisoners (Gardner, Scientific American, October 1959): one of A, B and C,
# each as likely, is pardoned; the others will be executed. A asks the warden, who knows,
# to name one of the other two who will be executed (at random when both will); the
# warden names B. A's chance of the pardon stays 1/3; C's is now 2/3.
enum Prisoner { a, b, c }
characters A, Warden
Prisoner pardoned

Warden learns pardoned
actual pardoned == c

event warden_names {
  names_b if pardoned != b
  names_c if pardoned != c
  A sees names_b | names_c
  Warden sees names_b | names_c
  actual names_b
}

check actual probability(A, pardoned == a) == 1/3
check actual probability(A, pardoned == c) == 2/3
show probability(A, pardoned == a)
show probability(A, pardoned == c)
worlds

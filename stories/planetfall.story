# The Stellar Patrol application form in Infocom's Planetfall (1983), question 29,
# as solved by brute force in "Planetfall's logic puzzle" (a Python blog post).
#
# Six aliens sat round a circular table: three couples, a male and a female of the
# Pharrix, the Boorb and the Keqree. They were a Gravity Engineer, a Cosmobiologist, a
# Sleep Technician, an Ambassador, a Fusion Supervisor and an Editor, from Gallium,
# Legllama, Granjil-6, Storvbay, Ansill and Jaaggo. Where did each person sit?
#
# The seats are numbered as in the post: the male Pharrix sits at seat 0, and seat i is
# i seats to the left of him. So the person to the left of seat i sits at (i + 1) % 6,
# the one to the right at (i + 5) % 6, and the one across the table at (i + 3) % 6.
# No characters: this is a plain constraint puzzle.

enum Sex { male, female }
enum Species { pharrix, boorb, keqree }
enum Job { gravity_engineer, cosmobiologist, sleep_technician, ambassador, fusion_supervisor, editor }
enum Planet { gallium, legllama, granjil_6, storvbay, ansill, jaaggo }

# Who sits in each seat, their job, and their planet of origin.
Sex sex[6]
Species species[6]
Job job[6]
Planet planet[6]

# Three couples: exactly one male and one female of each species.
announce count(i in 0..6: sex[i] == male and species[i] == pharrix) == 1 and
         count(i in 0..6: sex[i] == female and species[i] == pharrix) == 1 and
         count(i in 0..6: sex[i] == male and species[i] == boorb) == 1 and
         count(i in 0..6: sex[i] == female and species[i] == boorb) == 1 and
         count(i in 0..6: sex[i] == male and species[i] == keqree) == 1 and
         count(i in 0..6: sex[i] == female and species[i] == keqree) == 1
# Six different jobs, six different planets.
announce distinct(i in 0..6: job[i])
announce distinct(i in 0..6: planet[i])

# The male Pharrix sits at seat 0 (this only fixes how the seats are numbered).
announce sex[0] == male and species[0] == pharrix

# Each male sat between two females,
announce all(i in 0..6: sex[i] == male -> sex[(i + 1) % 6] == female and sex[(i + 5) % 6] == female)
# and no one sat next to their spouse.
announce all(i in 0..6: species[i] != species[(i + 1) % 6])

# (a) The one from Ansill sat between the Cosmobiologist and a Keqree.
announce all(i in 0..6: planet[i] == ansill ->
    (job[(i + 5) % 6] == cosmobiologist and species[(i + 1) % 6] == keqree) or
    (job[(i + 1) % 6] == cosmobiologist and species[(i + 5) % 6] == keqree))

# (b) The female Pharrix sat across from the Gravity Engineer.
announce all(i in 0..6: sex[i] == female and species[i] == pharrix ->
    job[(i + 3) % 6] == gravity_engineer)

# (c) The one to the left of the Fusion Supervisor was a male, who sat across from the
#     one from Granjil-6.
announce all(i in 0..6: job[i] == fusion_supervisor ->
    sex[(i + 1) % 6] == male and planet[(i + 4) % 6] == granjil_6)

# (d) The Ambassador sat between the Editor and the one from Jaaggo; one of these three
#     is the male Boorb.
announce all(i in 0..6: job[i] == ambassador ->
    ((job[(i + 5) % 6] == editor and planet[(i + 1) % 6] == jaaggo) or
     (job[(i + 1) % 6] == editor and planet[(i + 5) % 6] == jaaggo)) and
    any(d in 0..3: sex[(i + 5 + d) % 6] == male and species[(i + 5 + d) % 6] == boorb))

# (e) The one from Gallium sat to the left of the one from Storvbay; neither is a Keqree.
announce all(i in 0..6: planet[i] == storvbay ->
    planet[(i + 1) % 6] == gallium and species[i] != keqree and species[(i + 1) % 6] != keqree)

# (f) The Sleep Technician sat across from the one from Legllama, who is not the
#     Fusion Supervisor.
announce all(i in 0..6: job[i] == sleep_technician ->
    planet[(i + 3) % 6] == legllama and job[(i + 3) % 6] != fusion_supervisor)

worlds

# Answer: exactly one seating.
#   seat 0: male Pharrix,   Gravity Engineer,  from Storvbay
#   seat 1: female Boorb,   Fusion Supervisor, from Gallium
#   seat 2: male Keqree,    Editor,            from Legllama
#   seat 3: female Pharrix, Ambassador,        from Ansill
#   seat 4: male Boorb,     Cosmobiologist,    from Jaaggo
#   seat 5: female Keqree,  Sleep Technician,  from Granjil-6

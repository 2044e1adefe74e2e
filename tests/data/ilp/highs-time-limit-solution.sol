Model status
Time limit reached

# Primal solution values
Feasible
Objective 0
# Columns 4
x0 0
x1 1
x2 1
x3 0
# Rows 4
t0 1
t1 1
u0 1
u1 1

# Dual solution values
None

# Basis
HiGHS_basis_file v2
None

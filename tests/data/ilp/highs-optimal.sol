Model status
Optimal

# Primal solution values
Feasible
Objective 0
# Columns 4
x0 1
x1 0
x2 0
x3 1
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

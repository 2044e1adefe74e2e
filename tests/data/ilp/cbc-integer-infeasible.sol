Integer infeasible - objective value 0.00000000
      0 x0                   0.5                       0
      1 x1                     1                       0
      2 x2                     0                       0

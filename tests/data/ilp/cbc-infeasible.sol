Infeasible - objective value 0.00000000
      0 x0                     0                       0
      1 x1                     1                       0

Optimal - objective value 0.00000000
      0 x0                     1                       0
      1 x1                     0                       0
      2 x2                     0                       0
      3 x3                     1                       0

Stopped on time - objective value 13737.00000000
      1 x1                     1                       2
      3 x3                     1                       2
      8 x8                     1                       4
      9 x9                     1                       2
     14 x14                    1                       1
     34 x34                    1                       4

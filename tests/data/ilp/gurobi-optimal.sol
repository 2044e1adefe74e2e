# Solution for model obj
# Objective value = 0
x0 1
x1 0
x2 0
x3 1

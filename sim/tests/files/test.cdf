# a test distribution, not a published one
0 0
1000 50
100000 90
1000000 100

# Flow sizes of a web search cluster: the distribution measured in
# "Data Center TCP" (Alizadeh et al., SIGCOMM 2010, Figure 4), as the
# HPCC paper's traffic generator lists its points.  "bytes percent" a
# line; sim/tools/traffic.py interpolates linearly between points.
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100

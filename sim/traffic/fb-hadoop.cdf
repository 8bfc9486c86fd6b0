# Flow sizes of Facebook's Hadoop cluster: the distribution of "Inside
# the Social Network's (Datacenter) Network" (Roy et al., SIGCOMM 2015),
# as the HPCC paper's traffic generator lists its points.  "bytes
# percent" a line; sim/tools/traffic.py interpolates linearly.
0 0
100 1
200 2
300 5
350 15
400 20
500 30
600 40
700 50
1000 60
2000 67
7000 70
30000 72
50000 82
80000 87
120000 90
300000 95
1000000 97.5
2000000 99
10000000 100

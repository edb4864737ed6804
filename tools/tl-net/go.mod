module tuninglab/tl-net

go 1.22

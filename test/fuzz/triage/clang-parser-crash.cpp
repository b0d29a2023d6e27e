void mm(inttemplatem(inttemplate <class T>ouble *a, double *c::gpu~_[[cluster::gpu_parallel(collapse(3), min_iters(10))]]
 for (int j = 0; j < m; ++j) for (int i = 1; i < n; ++i)
    for (int j = 0; j < mj *=n  ]*i+  2.0;
}

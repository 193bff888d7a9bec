// RUN: clvm run %s --global 2 --arg a=zeros:4
// A trap in a file whose path is over 40 bytes names the path's last 40
// bytes (after "..."), where the file name is, not its first 40.
kernel void oob(global int *a)
{
    a[get_global_id(0)] = 1;
}

// No @main, two functions, and both take arguments: nothing to run.
// REJECT: malformed: no entry function
func.func @f(%arg0: tensor<f32>) -> tensor<f32> {
  return %arg0 : tensor<f32>
}
func.func @g(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = call @f(%arg0) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
